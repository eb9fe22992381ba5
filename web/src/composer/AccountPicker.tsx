// The accounts a post can go to, as their avatars with the network's badge: each a toggle button (pressed when the
// post goes to it), named by the account, its handle and its network.
import { ToggleButton } from 'react-aria-components';
import { t } from '../i18n.ts';
import { Avatar } from '../ui/Avatar.tsx';
import type { Account } from './model.ts';

interface Props {
  accounts: readonly Account[];
  chosen: ReadonlySet<string>;
  networkOf: (account: Account) => string;
  onToggle: (account: Account, chosen: boolean) => void;
}

export function AccountPicker({ accounts, chosen, networkOf, onToggle }: Props) {
  return (
    <ul className="account-picker">
      {accounts.map((account) => (
        <li key={account.id}>
          <ToggleButton className="account-choice" isSelected={chosen.has(account.id)} onChange={(selected) => onToggle(account, selected)}>
            {/* Named by its text: the avatar repeats the name, and a name set apart from the visible text would differ from it. */}
            <span aria-hidden="true">
              <Avatar src={account.avatarUrl} name={account.displayName} provider={account.provider} size={44} />
            </span>
            <span className="account-choice-name">{account.displayName}</span>
            <span className="visually-hidden"> {t('composer.pickAccountDetail', { username: account.username, network: networkOf(account) })}</span>
          </ToggleButton>
        </li>
      ))}
    </ul>
  );
}
