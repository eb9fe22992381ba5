// People and roles: who belongs to the workspace, add a person by email, change a role, remove a person. The API
// decides who may do what (only owners touch owners; a workspace keeps one owner) and says so in its errors.
import { useState } from 'react';
import { useMutation, useQuery, type OperationResult } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { Table, type Column } from '../table.tsx';
import { detailFor, ErrorBanner, Field } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { ConfirmButton } from '../ui/ConfirmButton.tsx';
import { ApprovalSetting } from '../posts/ApprovalSetting.tsx';

const MembersQuery = `query Members { members { userId email name role joinedAt } }`;
const AddMember = `mutation AddMember($email: String!, $role: Role!, $password: String) { addMember(email: $email, role: $role, password: $password) { userId } }`;
const SetRole = `mutation SetMemberRole($userId: ID!, $role: Role!) { setMemberRole(userId: $userId, role: $role) { userId role } }`;
const RemoveMember = `mutation RemoveMember($userId: ID!) { removeMember(userId: $userId) { userId } }`;

interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: string;
  joinedAt: string;
}
const roles = ['OWNER', 'ADMIN', 'EDITOR', 'VIEWER'] as const;

function RoleOptions() {
  return roles.map((role) => (
    <option key={role} value={role}>
      {t('people.role', { role })}
    </option>
  ));
}

export function People() {
  const [{ data }, reload] = useQuery<{ members: Member[] }>({ query: MembersQuery, requestPolicy: 'cache-and-network' });
  const [, addMember] = useMutation(AddMember);
  const [, setRole] = useMutation(SetRole);
  const [, removeMember] = useMutation(RemoveMember);
  // Which form the API refused (`add`, or the person whose row it was), so its message and details show there.
  const [error, setError] = useState<{ form: string; error: ApiError } | null>(null);
  const errorOf = (form: string) => (error?.form === form ? error.error : null);

  async function act(form: string, pending: Promise<OperationResult>) {
    const result = await pending;
    setError(result.error ? { form, error: apiErrorOf(result.error) } : null);
    reload({ requestPolicy: 'network-only' });
    return !result.error;
  }

  const columns: Column<Member>[] = [
    {
      header: t('signIn.email'),
      // The row's name: the description of its Remove button.
      cell: (member) => <span id={`member-${member.userId}`}>{member.name ? `${member.name} <${member.email}>` : member.email}</span>,
    },
    {
      header: t('people.roleColumn'),
      cell: (member) => (
        <>
          <select
            aria-label={t('people.roleOf', { email: member.email })}
            value={member.role}
            aria-invalid={detailFor(errorOf(member.userId), 'role') ? true : undefined}
            onChange={(event) => act(member.userId, setRole({ userId: member.userId, role: event.target.value }))}
          >
            <RoleOptions />
          </select>
          {detailFor(errorOf(member.userId), 'role') && <p className="field-error">{detailFor(errorOf(member.userId), 'role')}</p>}
        </>
      ),
    },
    { header: t('people.joinedAt'), cell: (member) => formatDateTime(member.joinedAt) },
    {
      header: t('common.actions'),
      hidden: true,
      cell: (member) => (
        <>
          <ConfirmButton
            label={t('people.remove')}
            describedBy={`member-${member.userId}`}
            title={t('people.removeTitle', { email: member.email })}
            message={t('people.removeMessage')}
            confirmLabel={t('people.removeConfirm')}
            onConfirm={async () => {
              await act(member.userId, removeMember({ userId: member.userId }));
            }}
          />
          <ErrorBanner error={errorOf(member.userId)} />
        </>
      ),
    },
  ];

  return (
    <section aria-labelledby="people-title">
      <h1 id="people-title">{t('people.title')}</h1>
      <Table className="card-table" columns={columns} rows={data?.members ?? []} keyOf={(member) => member.userId} />
      <ApprovalSetting />
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const element = event.currentTarget;
          const form = new FormData(element);
          const password = String(form.get('password') ?? '') || undefined;
          if (await act('add', addMember({ email: String(form.get('email') ?? ''), role: String(form.get('role')), password }))) element.reset();
        }}
      >
        <h2>{t('people.add')}</h2>
        <ErrorBanner error={errorOf('add')} />
        <Field label={t('signIn.email')} name="email" type="email" error={detailFor(errorOf('add'), 'email')} />
        <div className="field">
          <label htmlFor="new-member-role">{t('people.roleColumn')}</label>
          <select id="new-member-role" name="role" defaultValue="EDITOR" aria-invalid={detailFor(errorOf('add'), 'role') ? true : undefined}>
            <RoleOptions />
          </select>
          {detailFor(errorOf('add'), 'role') && <p className="field-error">{detailFor(errorOf('add'), 'role')}</p>}
        </div>
        <Field label={t('people.password')} name="password" type="password" autoComplete="new-password" error={detailFor(errorOf('add'), 'password')} />
        <Button type="submit" variant="primary">
          {t('people.addButton')}
        </Button>
      </form>
    </section>
  );
}
