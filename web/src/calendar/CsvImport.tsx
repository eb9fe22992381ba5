// The calendar's CSV import: a file is chosen, checked at once by the API's dry run, and its findings shown per row
// (row, column, problem) before anything is saved; only a file without findings can be imported, all rows at once.
// Loaded when the dialog first opens (react-aria's modal stays out of the calendar's first load).
import { useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { Table } from '../table.tsx';
import { ErrorBanner } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { checkCsv, importCsv, rowsOf, type RowFindings } from './postsCsv.ts';

type Step =
  | { kind: 'choose' }
  | { kind: 'checking' }
  | { kind: 'checked'; file: File; rows: RowFindings[]; key: string }
  | { kind: 'importing' }
  | { kind: 'done'; count: number };

interface Finding {
  key: string;
  row: number;
  column: string;
  message: string;
}

/** An Idempotency-Key per checked file (crypto.randomUUID needs a secure origin; a self-hosted http one is not). */
const newImportKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

const findingsOf = (rows: readonly RowFindings[]): Finding[] =>
  rows.flatMap((row) => row.findings.map((finding, index) => ({ key: `${row.row}-${index}`, row: row.row, column: finding.field, message: finding.message })));

export default function CsvImport({ workspaceId, onClose, onImported }: { workspaceId: string; onClose: () => void; onImported: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [error, setError] = useState<ApiError | null>(null);

  async function choose(file: File | undefined) {
    if (!file) return;
    setError(null);
    setStep({ kind: 'checking' });
    try {
      const check = await checkCsv(workspaceId, file);
      setStep({ kind: 'checked', file, rows: check.rows, key: newImportKey() });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('INTERNAL', String(caught)));
      setStep({ kind: 'choose' });
    }
  }

  async function runImport(file: File, key: string, rows: RowFindings[]) {
    setStep({ kind: 'importing' });
    try {
      const posts = await importCsv(workspaceId, file, key);
      setStep({ kind: 'done', count: posts.length });
      onImported();
    } catch (caught) {
      const apiError = caught instanceof ApiError ? caught : new ApiError('INTERNAL', String(caught));
      const refused = rowsOf(apiError);
      // A refusal found only by the real run (a file's own rules) shows in the table; anything else above it.
      if (refused.length) setStep({ kind: 'checked', file, rows: refused, key: newImportKey() });
      else {
        setError(apiError);
        setStep({ kind: 'checked', file, rows, key });
      }
    }
  }

  const findings = step.kind === 'checked' ? findingsOf(step.rows) : [];
  const badRows = step.kind === 'checked' ? step.rows.filter((row) => row.findings.length).length : 0;
  return (
    <ModalOverlay className="modal-overlay" isDismissable isOpen onOpenChange={(open) => !open && onClose()}>
      <Modal className="modal csv-import">
        <Dialog className="dialog">
          <Heading slot="title">{t('calendar.importTitle')}</Heading>
          <p className="muted">{t('calendar.importHelp')}</p>
          <label className="field">
            <span>{t('calendar.importFile')}</span>
            <input
              type="file"
              accept=".csv,text/csv"
              disabled={step.kind === 'checking' || step.kind === 'importing'}
              onChange={(event) => void choose(event.currentTarget.files?.[0])}
            />
          </label>
          <ErrorBanner error={error} />
          {step.kind === 'checking' && <p role="status">{t('calendar.importChecking')}</p>}
          {step.kind === 'importing' && <p role="status">{t('calendar.importImporting')}</p>}
          {step.kind === 'done' && <p role="status">{t('calendar.importDone', { count: step.count })}</p>}
          {step.kind === 'checked' &&
            (findings.length ? (
              <>
                <p role="status">{t('calendar.importInvalid', { bad: badRows })}</p>
                <Table
                  className="card-table"
                  aria-label={t('calendar.importFindings')}
                  columns={[
                    { header: t('calendar.importRow'), cell: (finding: Finding) => finding.row },
                    { header: t('calendar.importColumn'), cell: (finding: Finding) => finding.column || '—' },
                    { header: t('calendar.importProblem'), cell: (finding: Finding) => finding.message },
                  ]}
                  rows={findings}
                  keyOf={(finding) => finding.key}
                />
              </>
            ) : (
              <p role="status">{t('calendar.importValid', { count: step.rows.length })}</p>
            ))}
          <div className="actions">
            {step.kind === 'checked' && !findings.length && (
              <Button variant="primary" onPress={() => void runImport(step.file, step.key, step.rows)}>
                {t('calendar.importConfirm', { count: step.rows.length })}
              </Button>
            )}
            <Button onPress={onClose}>{t('calendar.importClose')}</Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
