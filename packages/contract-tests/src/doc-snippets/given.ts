// What a documentation example may use without declaring it (each block is its own module and imports
// only the names below that it uses and does not declare itself). The test sets the environment: the
// company key of the server it runs against, its URLs, and a fake callback key.
import { createClient, createLegacyClient } from '@idv-toolkit/client';

export const companyKey: string = process.env.IDV_COMPANY_KEY!;
export const callbackApiKey: string = process.env.IDV_CALLBACK_KEY!;
export const baseUrl: string = process.env.DOC_BASE_URL!;
export const legacyBaseUrl: string = process.env.DOC_LEGACY_BASE_URL!;
export const idv = createClient({ companyKey, baseUrl });
export const legacy = createLegacyClient({ companyKey, baseUrl: legacyBaseUrl });
/** A session begun for the example: its ID and the applicant's URL. */
export const { id, url } = await idv.begin({ configId: 'cfg-kyc-standard-01' });
/** The bytes of a small PDF file. */
export const pdfBytes: Uint8Array = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
