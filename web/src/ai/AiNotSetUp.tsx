// What stands where AI actions would be when the service has no AI set up: that it is not, and how to set it up.
import { t } from '../i18n.ts';

export function AiNotSetUp({ short = false }: { short?: boolean }) {
  return <p className="muted ai-not-set-up">{t(short ? 'ai.notSetUpShort' : 'ai.notSetUp')}</p>;
}
