import type { Browser, Page } from 'playwright-core';
export declare const chromiumPath: string;
export declare function launchChromium(): Promise<Browser>;
export declare function keepOnLoopback(page: Page, outside: string[]): Promise<void>;
