// Files attached to questions of questionnaire steps: upload, read, delete, and read by position. Each
// file belongs to one session, step and question of the caller's company; every check comes before the
// write, so a refused request stores nothing.
import { refuse } from '../codes.js';
import type { Context, TypedHandlers } from '../context.js';
import { parseDataUri, toDataUri } from '../media/data-uri.js';
import { sniffMediaType } from '../media/sniff.js';
import { sessionOf } from '../sessions.js';
import type { Attachment, Session } from '../state.js';

const uploadTypes: ReadonlySet<string> = new Set<Attachment['contentType']>(['application/pdf', 'image/jpeg', 'image/png']);
const isUploadType = (type: string): type is Attachment['contentType'] => uploadTypes.has(type);

/**
 * The step and question the request names must be in the session. Our choice: any question of the step
 * takes files, not only attachment-type ones (the reference shows no code for the difference).
 */
function checkQuestion(context: Context<'uploadFile'>, session: Session) {
  const step = session.steps.find((s) => s.key === context.body.stepKey) ?? refuse(context, 'wrong-parameters');
  const questions = Array.isArray(step.questions) ? (step.questions as { key?: unknown }[]) : [];
  if (!questions.some((q) => q?.key === context.body.questionKey)) refuse(context, 'wrong-parameters');
}

/** The session's files of the request's step and question, in upload order. */
async function questionFiles(context: Context<'getQuestionFile'>, session: Session): Promise<Attachment[]> {
  const { stepKey, questionKey } = context.body;
  return (await context.state.files.find(context.company.companyKey, 'session', session.id)).filter((f) => f.stepKey === stepKey && f.questionKey === questionKey);
}

/**
 * The file named by `filename` (a fileId from upload-file). Our choice: it must belong to the request's
 * session, step and question, else `wrong-parameters`, as an unknown ID.
 */
async function namedFile(context: Context<'getFile' | 'deleteFile'>, session: Session): Promise<Attachment> {
  const file = await context.state.files.get(context.company.companyKey, String(context.body.filename));
  if (!file || file.sessionId !== session.id || file.stepKey !== context.body.stepKey || file.questionKey !== context.body.questionKey) refuse(context, 'wrong-parameters');
  return file;
}

export const attachmentsHandlers: TypedHandlers = {
  async uploadFile(context) {
    const session = await sessionOf(context, context.body.sessionId);
    checkQuestion(context, session);
    // The declared type must be accepted and must be what the bytes' magic number says they are.
    const file = parseDataUri(String(context.body.content));
    if (!file || !isUploadType(file.contentType) || sniffMediaType(file.bytes) !== file.contentType) refuse(context, 'wrong-parameters');
    const attachment: Attachment = {
      id: context.ids.next('file'),
      sessionId: session.id,
      stepKey: context.body.stepKey,
      questionKey: context.body.questionKey,
      contentType: file.contentType,
      bytes: file.bytes,
      uploadedAt: new Date(context.clock.now()).toISOString(),
    };
    await context.state.files.put(context.company.companyKey, attachment.id, attachment);
    return { json: { result: attachment.id } };
  },

  async getFile(context) {
    const file = await namedFile(context, await sessionOf(context, context.body.sessionId));
    return { bytes: file.bytes, contentType: file.contentType };
  },

  async deleteFile(context) {
    const file = await namedFile(context, await sessionOf(context, context.body.sessionId));
    await context.state.files.delete(context.company.companyKey, file.id);
    return { json: { result: true } };
  },

  /** fileIndex (default 0) counts the question's files in upload order; none there is `wrong-parameters`. */
  async getQuestionFile(context) {
    const session = await sessionOf(context, context.body.sessionId);
    const file = (await questionFiles(context, session))[context.body.fileIndex ?? 0] ?? refuse(context, 'wrong-parameters');
    return { json: { result: { contentType: file.contentType, content: toDataUri(file.contentType, file.bytes) } } };
  },
};
