// The workspace's default `links` setting: what a target gets when it is written without `settings.links`. Read by
// every member, changed by owners and admins (as the workspace's other settings).
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { Prisma } from '../db/generated/prisma/client.ts';
import { invalidRequest } from '../errors/appError.ts';
import { changesLinks, checkLinkSetting, linksAsWritten, storedLinkSetting, type LinkSetting } from './setting.ts';

type Reader = Pick<Transaction, 'workspace'>;

/** The workspace's default; links as written when it has none. */
export async function linkDefaultOf(client: Reader, workspaceId: string): Promise<LinkSetting> {
  const workspace = await client.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { linkDefaults: true } });
  return storedLinkSetting(workspace.linkDefaults) ?? linksAsWritten;
}

/** A target's settings as written: with the workspace's default where they name no `links` (none where it changes nothing). */
export function withLinkDefault(settings: Record<string, unknown> | null | undefined, linkDefault: LinkSetting): Record<string, unknown> | null | undefined {
  return settings?.links === undefined && changesLinks(linkDefault) ? { ...settings, links: linkDefault } : settings;
}

export async function getLinkDefaults(db: Database, actor: Actor): Promise<LinkSetting> {
  authorize(actor, 'getLinkDefaults');
  return linkDefaultOf(db.prisma, actor.workspaceId);
}

/** Replaces the default (400 with details when it does not fit the setting's schema); posts written before keep theirs. */
export async function setLinkDefaults(db: Database, actor: Actor, input: unknown): Promise<LinkSetting> {
  authorize(actor, 'setLinkDefaults');
  const { setting, details } = checkLinkSetting(input);
  if (details.length) throw invalidRequest(details);
  await db.prisma.workspace.update({ where: { id: actor.workspaceId }, data: { linkDefaults: setting as unknown as Prisma.InputJsonObject } });
  return setting;
}
