// POST /posts/validate: the dry run of creating a post. It runs the checks create runs (assessPost) and reports what
// they find instead of refusing it; nothing is written.
import type { ErrorDetail } from '../errors/appError.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { Database } from '../db/database.ts';
import { localizeDetail } from '../errors/localize.ts';
import type { Language } from '../errors/messages.ts';
import { violationDetails } from './validation.ts';
import { assessPost } from './assessment.ts';
import { checkPostLimits, type PostInput } from './posts.ts';
import { threadParts } from './threads.ts';

/** One target's findings: everything a create of this post would refuse for it, as its 422 details would name it. */
export interface TargetFindings {
  index: number;
  connectionId: string;
  placement: string;
  findings: ErrorDetail[];
}

export interface PostValidation {
  valid: boolean;
  targets: TargetFindings[];
}

/**
 * The dry run of POST /posts: the same checks as create, nothing saved. Input that create would refuse with 400 is
 * refused the same way; what it would refuse with 422 (unknown accounts or media, files not ready, duplicates,
 * network rules) comes back as findings. A media problem is a finding of every target, since every target would
 * publish the file.
 */
export async function validatePost(db: Database, actor: Actor, input: PostInput): Promise<PostValidation> {
  authorize(actor, 'validatePost');
  checkPostLimits(input.content, input.targets, input.campaign);
  const content = { caption: input.content.caption ?? '', mediaIds: input.content.mediaIds ?? [], thread: threadParts(input.content.thread) };
  const assessment = await assessPost(db.prisma, actor, content, input.targets);
  const targets = assessment.targets.map(({ target, problems, violations }, index) => ({
    index,
    connectionId: target.connectionId,
    placement: target.placement,
    findings: [...problems, ...assessment.mediaProblems, ...violationDetails(index, violations)],
  }));
  return { valid: targets.every((target) => !target.findings.length), targets };
}

export function presentValidation(validation: PostValidation, language: Language) {
  return {
    valid: validation.valid,
    targets: validation.targets.map((target) => ({ ...target, findings: target.findings.map((finding) => localizeDetail(finding, language)) })),
  };
}
