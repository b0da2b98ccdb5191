import { checkCorpusShard } from './check-shard.ts';

checkCorpusShard(0);
