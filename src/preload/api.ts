/**
 * The contract between the renderer and the main process. Types only: the
 * renderer imports them, the preload implements them, the main process
 * validates every message against them, so a change breaks the build.
 */
export interface InspectSummary {
  readonly rows: number;
  readonly columns: readonly { readonly name: string; readonly type: string; readonly distinct: number; readonly missing: number }[];
  readonly encoding?: string;
  readonly delimiter?: string;
}

export interface CustosApi {
  readonly version: string;
  inspect(path: string): Promise<InspectSummary>;
}

export const IPC_CHANNELS = { inspect: 'custos:inspect' } as const;
