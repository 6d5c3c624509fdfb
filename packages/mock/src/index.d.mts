export type MockName = 'current' | 'legacy';
export type MockUrls = Record<MockName, string>;

/** Paths of the bundled descriptions that the mocks serve. */
export declare const bundles: Record<MockName, string>;
/** 4010 for the current interface, 4011 for the legacy one. */
export declare const defaultPorts: Record<MockName, number>;

/**
 * Starts one Prism per interface on `host` (127.0.0.1 by default); each answers a malformed request
 * target with 400 before Prism's handler sees it. A port of 0, or a port that is taken, gets a free port.
 * A Prism that exits is replaced and `log` gets one line about it. Resolves once both answer.
 */
/** Bundles loading in warm Prisms ahead of a reload (startMocks().prepare). */
export type PreparedBundles = {
  texts: Partial<Record<MockName, string>>;
  /** Drops them (a save that failed its check). */
  cancel(): void;
};

export declare function startMocks(options?: {
  host?: string;
  ports?: Partial<Record<MockName, number>>;
  verbose?: boolean;
  timeoutMs?: number;
  /** Where the one line about a restarted Prism goes; console.log by default. */
  log?: (line: string) => void;
  /** Keep a standby Prism per interface loaded, which takes over at once when one exits (about 150 MB each). */
  standby?: boolean;
  /**
   * Reloads are read in place by the Prism serving (no Prism started per reload: `npm run dev`), and a warm
   * Prism per interface (its modules loaded, no document yet; about 100 MB each) takes over if one exits.
   */
  warm?: boolean;
  /** Other bundle files to serve than the package's, by interface: only the interfaces named are mocked. */
  bundles?: Partial<Record<MockName, string>>;
}): Promise<{
  /** One URL per interface mocked (both unless `bundles` names fewer). */
  urls: MockUrls;
  /**
   * Serves the bundles as they are now: a new Prism per interface accepts on the same port before the old
   * one drains (answers what it has, then ends), so no connection is refused. Rejects, keeping the old
   * Prisms serving, if a bundle cannot be read or a new Prism does not start.
   */
  reload(options?: { prepared?: Promise<PreparedBundles> | PreparedBundles }): Promise<void>;
  /**
   * With `warm`: the Prisms read these bundles (name -> the bundle's text as it will be written) ahead of
   * the reload, held from the port; `reload({ prepared })` serves them if the bundles are those texts.
   */
  prepare(texts: Partial<Record<MockName, string>>): Promise<PreparedBundles>;
  stop(): Promise<void>;
  /** The process IDs of the Prism processes answering now (for diagnostics and tests). */
  prismPids(): Record<MockName, number | undefined>;
  /** The process IDs of the warm Prisms that the next reload will use (with `warm`). */
  warmPids(): Record<MockName, number | undefined>;
  /** Resolves once each interface has its standby loaded (at once without `standby`). */
  standbysReady(): Promise<void>;
  /** Resolves once each interface has its warm Prism's modules loaded (at once without `warm`). */
  warmReady(): Promise<void>;
}>;
