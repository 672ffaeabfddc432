import { Table } from '@chakra-ui/react';
import type { LoudnessFigures } from './jobsApi';

/** The three loudness column headings, as both panels' tables show them. */
export function LoudnessColumns() {
  return (
    <>
      <Table.ColumnHeader>Integrated loudness</Table.ColumnHeader>
      <Table.ColumnHeader>Loudness range</Table.ColumnHeader>
      <Table.ColumnHeader>True peak</Table.ColumnHeader>
    </>
  );
}

/** A figure with its unit; a missing or unmeasurable one (a silent stem's loudness) as a dash. */
function figure(value: number | undefined, unit: string): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${value.toFixed(1)} ${unit}` : '—';
}

/** Integrated loudness (LUFS), loudness range (LU) and true peak (dBTP), one decimal each. */
export function LoudnessCells({ figures }: { figures: LoudnessFigures | null }) {
  return (
    <>
      <Table.Cell>{figure(figures?.integratedLufs, 'LUFS')}</Table.Cell>
      <Table.Cell>{figure(figures?.lra, 'LU')}</Table.Cell>
      <Table.Cell>{figure(figures?.truePeakDbtp, 'dBTP')}</Table.Cell>
    </>
  );
}
