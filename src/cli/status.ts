// `vigil status`: not yet available.
import type { CommandModule } from './context.ts';
import { UsageError } from '../errors.ts';

export const register: CommandModule['register'] = (program) => {
  program
    .command('status')
    .description('(not yet available)')
    .allowUnknownOption()
    .argument('[args...]')
    .action(() => {
      throw new UsageError('vigil status is not available in this build');
    });
};
