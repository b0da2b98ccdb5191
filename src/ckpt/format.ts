// Plain-text renderings of the ckpt reports (the CLI prints these; --output json prints the objects).
import { basename } from 'node:path';
import type { DraftCheck } from './check-draft.ts';
import type { InspectReport } from './inspect.ts';
import type { Recovery } from './recover.ts';
import type { RenamePlan, RenameResult } from './rename.ts';

const MODE_TEXT = {
  'in-place': 'rewritten in place (header only)',
  copy: 'rewritten by copy',
  unchanged: 'unchanged',
} as const;

export const formatBytes = (n: number): string => {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit] ?? ''}`;
};

const table = (rows: string[][]): string[] => {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
};

export const formatInspect = (report: InspectReport): string => {
  const lines: string[] = [];
  for (const file of report.files) {
    lines.push(
      `${file.file}  (${formatBytes(file.bytes)}, header ${file.header_bytes} bytes, ${file.tensors.length} tensors)`,
    );
    if (file.metadata !== null)
      lines.push(
        `  metadata: ${Object.entries(file.metadata)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}`,
      );
    lines.push(
      ...table([
        ['  NAME', 'DTYPE', 'SHAPE', 'BYTES'],
        ...file.tensors.map((t) => [`  ${t.name}`, t.dtype, JSON.stringify(t.shape), String(t.bytes)]),
      ]),
    );
  }
  if (report.index !== null) {
    lines.push(
      `index: ${report.index.file}, ${report.index.shards} shard${report.index.shards === 1 ? '' : 's'}${report.index.total_size === null ? '' : `, total_size ${report.index.total_size}`}`,
    );
  }
  if (report.config !== null) {
    lines.push('config.json:');
    for (const [key, value] of Object.entries(report.config))
      lines.push(`  ${key}: ${JSON.stringify(value)}`);
  } else if (report.kind === 'dir') lines.push('config.json: none');
  const dtypes = Object.entries(report.totals.by_dtype)
    .map(([d, b]) => `${d} ${formatBytes(b)}`)
    .join(', ');
  lines.push(
    `total: ${report.totals.tensors} tensors, ${formatBytes(report.totals.bytes)}${dtypes === '' ? '' : ` (${dtypes})`}`,
  );
  lines.push(`layout: ${report.layout_label}`, ...report.layout_reasons.map((r) => `  ${r}`));
  return `${lines.join('\n')}\n`;
};

export const formatRecovered = (recovered: readonly Recovery[]): string =>
  recovered.map((r) => `vigil: repaired an interrupted rewrite: ${r.path}: ${r.detail}\n`).join('');

export const formatRenamePlan = (plan: RenamePlan, dryRun: boolean): string => {
  const lines: string[] = [];
  const many = plan.checkpoint.shards.length > 1;
  if (plan.changes.length === 0) lines.push('no tensor name matches the rules: nothing to rename');
  else
    lines.push(
      ...table([
        ['FROM', 'TO', ...(many ? ['FILE'] : [])],
        ...plan.changes.map((c) => [c.from, c.to, ...(many ? [basename(c.file ?? '')] : [])]),
      ]),
    );
  for (const file of plan.files)
    if (file.mode !== 'unchanged')
      lines.push(`${basename(file.path)}: ${dryRun ? 'would be ' : ''}${MODE_TEXT[file.mode]}`);
  if (plan.index !== null)
    lines.push(`${basename(plan.index.path)}: weight_map ${dryRun ? 'would be ' : ''}updated`);
  if (plan.config !== null)
    lines.push(`${basename(plan.config.path)}: ${dryRun ? 'would be ' : ''}rewritten for the preset`);
  lines.push(...plan.notes.map((n) => `note: ${n}`));
  if (dryRun) lines.push('dry run: nothing was changed');
  return `${lines.join('\n')}\n`;
};

export const formatRenameResult = (result: RenameResult): string => {
  const lines = result.files.map(
    (f) =>
      `${basename(f.path)}: ${MODE_TEXT[f.mode]}, verified ${f.verified === 'header+data' ? 'header and every data byte' : 'header (names, dtypes, shapes, offsets)'}`,
  );
  lines.push(`renamed ${result.plan.changes.length} tensor${result.plan.changes.length === 1 ? '' : 's'}`);
  lines.push(...result.backups.map((b) => `kept the original as ${b}`));
  return `${lines.join('\n')}\n`;
};

const SOURCE_TEXT = {
  given: 'given by --engine-version',
  detected: 'detected by preflight',
  'newest-bundled':
    'no --engine-version: assumed the newest release vigil knows; pass --engine-version to check another',
  unknown: 'version unknown: assumed the oldest loader generation',
} as const;

export const formatDraftCheck = (check: DraftCheck): string => {
  const engine = check.engine_label;
  const lines = [
    `check-draft ${check.dir} against ${engine} ${check.version} (${SOURCE_TEXT[check.version_source]})`,
    `loader: ${check.generation}`,
    `layout: ${check.layout}`,
  ];
  for (const f of check.findings) {
    lines.push(`${f.severity}: ${f.message} [${f.code}]`, ...f.suggestions.map((s) => `  try: ${s}`));
  }
  lines.push(
    check.status === 'ok' ? `ok: ${engine} ${check.version} loads every tensor` : `result: ${check.status}`,
  );
  return `${lines.join('\n')}\n`;
};
