export type MockName = 'current' | 'legacy';
export type MockUrls = Record<MockName, string>;

/** Paths of the bundled descriptions that the mocks serve. */
export declare const bundles: Record<MockName, string>;
/** 4010 for the current interface, 4011 for the legacy one. */
export declare const defaultPorts: Record<MockName, number>;

/**
 * Starts one Prism per interface on `host` (127.0.0.1 by default). A port of 0, or a default port that is
 * taken, gets a free port. Resolves once both answer.
 */
export declare function startMocks(options?: {
  host?: string;
  ports?: Partial<Record<MockName, number>>;
  verbose?: boolean;
  timeoutMs?: number;
}): Promise<{ urls: MockUrls; stop(): Promise<void> }>;
