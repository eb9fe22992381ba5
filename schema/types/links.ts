// The workspace's default `links` setting (a target's own is in its `settings` JSON, as `links`).
import { builder } from '../builder.ts';
import { getLinkDefaults, setLinkDefaults } from '../../src/links/defaults.ts';
import type { LinkSetting } from '../../src/links/setting.ts';

const UtmRef = builder.objectRef<LinkSetting['utm']>('Utm').implement({
  fields: (t) => ({
    source: t.string({ nullable: true, resolve: (utm) => utm.source ?? null }),
    medium: t.string({ nullable: true, resolve: (utm) => utm.medium ?? null }),
    campaign: t.string({ nullable: true, resolve: (utm) => utm.campaign ?? null }),
  }),
});

const LinkSettingRef = builder.objectRef<LinkSetting>('LinkSetting').implement({
  description: 'Links in captions as published: UTM parameters added (kept where a link has them), and short links that count clicks.',
  fields: (t) => ({
    shorten: t.exposeBoolean('shorten'),
    utm: t.field({ type: UtmRef, resolve: (setting) => setting.utm }),
  }),
});

const UtmInput = builder.inputType('UtmInput', {
  fields: (t) => ({ source: t.string(), medium: t.string(), campaign: t.string() }),
});

builder.queryFields((t) => ({
  linkDefaults: t.field({
    type: LinkSettingRef,
    description: 'The `links` setting a target gets when it is written without one (REST GET /workspace/links).',
    authScopes: { operation: 'getLinkDefaults' },
    resolve: (_root, _args, context) => getLinkDefaults(context.services.db, context.actor),
  }),
}));

builder.mutationFields((t) => ({
  setLinkDefaults: t.field({
    type: LinkSettingRef,
    description: 'Replaces the workspace default (REST PUT /workspace/links); posts written before keep theirs.',
    args: { shorten: t.arg.boolean(), utm: t.arg({ type: UtmInput }) },
    authScopes: { operation: 'setLinkDefaults' },
    resolve: (_root, args, context) => {
      const utm = Object.fromEntries(Object.entries(args.utm ?? {}).filter(([, value]) => value !== null && value !== undefined));
      return setLinkDefaults(context.services.db, context.actor, {
        ...(args.shorten === null || args.shorten === undefined ? {} : { shorten: args.shorten }),
        utm,
      });
    },
  }),
}));
