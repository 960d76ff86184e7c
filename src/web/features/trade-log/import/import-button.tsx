import { ActionIcon, Button, FileButton, Group, Tooltip } from '@mantine/core';
import { IconChartCandle, IconHelp, IconUpload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useRef, useState, type ComponentProps } from 'react';
import { ImportDialog, type ImportedInto } from './import-dialog';
import { ImportGuide } from './import-guide';
import { toastError } from './notify';
import { checkFileSize } from './read-file';

export interface ImportButtonProps {
  /** The account the Trade Log shows; preselected in the dialog when it is one of the trader's accounts. */
  accountId?: string | null;
  /** Called after trades were imported (the queries under ['trades'], ['accounts'] and ['stats'] are refreshed already). */
  onImported?: (result: ImportedInto) => void;
}

/** The import button (JSON or CSV) and the Trade Import Guide. */
export function ImportButton({ accountId, onImported }: ImportButtonProps) {
  const [picked, setPicked] = useState<{ file: File; token: number } | null>(null);
  const [guideOpen, setGuideOpen] = useState(false);
  const resetRef = useRef<() => void>(null);

  const choose = (file: File | null) => {
    // The same file may be chosen again after a cancel or an import (a re-import must be possible).
    resetRef.current?.();
    if (!file) return;
    const tooLarge = checkFileSize(file);
    if (tooLarge) {
      toastError('Failed to import trades', tooLarge);
      return;
    }
    setPicked({ file, token: Date.now() });
  };

  return (
    <>
      <Group gap={4} wrap="nowrap">
        <FileButton
          onChange={choose}
          accept=".csv,.json,.txt,text/csv,application/json,text/plain"
          resetRef={resetRef}
          inputProps={{ 'aria-label': 'Import trades file', 'data-testid': 'import-file-input' } as ComponentProps<'input'>}
        >
          {(props) => (
            <Button variant="default" leftSection={<IconUpload size={16} aria-hidden />} {...props} data-testid="import-button">
              Import
            </Button>
          )}
        </FileButton>
        <Tooltip label="Trade Import Guide">
          <ActionIcon variant="subtle" size="lg" aria-label="Trade Import Guide" onClick={() => setGuideOpen(true)} data-testid="import-guide-button">
            <IconHelp size={18} />
          </ActionIcon>
        </Tooltip>
        {/* Price bars for the trades' charts, MAE and MFE are imported on their own page. */}
        <Tooltip label="Market data: import price bars">
          <ActionIcon component={Link} to="/market-data" variant="subtle" size="lg" aria-label="Market data" data-testid="market-data-link">
            <IconChartCandle size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
      {picked && (
        <ImportDialog
          key={picked.token}
          file={picked.file}
          accountId={accountId}
          onClose={() => setPicked(null)}
          onImported={onImported}
          onOpenGuide={() => setGuideOpen(true)}
        />
      )}
      <ImportGuide opened={guideOpen} onClose={() => setGuideOpen(false)} />
    </>
  );
}
