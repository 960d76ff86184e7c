import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { QUICK_LINK_ICONS, QUICK_LINK_TITLE_MAX, QUICK_LINK_URL_MAX, isWebUrl, normalizeWebUrl } from '../../../../domain/links/quick-links';
import { QuickLinkIcon, QUICK_LINK_ICON_LABELS } from '../../../components/quick-link-icon';
import type { QuickLink } from '../../../shared/api';
import type { QuickLinkBody } from '../quick-links-api';

/** Add quick link / Edit quick link: `editing` is null while closed, `{ link: null }` to add. */
export function QuickLinkDialog(props: {
  editing: null | { link: QuickLink | null };
  onClose: () => void;
  onSubmit: (body: QuickLinkBody) => void;
  saving: boolean;
}) {
  const { editing, onClose, onSubmit, saving } = props;
  return (
    <Modal opened={editing !== null} onClose={onClose} title={editing?.link ? 'Edit quick link' : 'Add quick link'} centered>
      {editing && (
        <LinkForm
          initial={
            editing.link ? { title: editing.link.title, url: editing.link.url, icon: editing.link.icon } : { title: '', url: '', icon: 'link' }
          }
          onSubmit={onSubmit}
          onCancel={onClose}
          saving={saving}
        />
      )}
    </Modal>
  );
}

function LinkForm({
  initial,
  onSubmit,
  onCancel,
  saving,
}: {
  initial: QuickLinkBody;
  onSubmit: (body: QuickLinkBody) => void;
  onCancel: () => void;
  saving: boolean;
}) {
  const [title, setTitle] = useState(initial.title);
  const [url, setUrl] = useState(initial.url);
  const [icon, setIcon] = useState(initial.icon ?? 'link');
  const [errors, setErrors] = useState<{ title?: string; url?: string }>({});

  const submit = () => {
    const normalized = normalizeWebUrl(url);
    const next = {
      title: title.trim() ? undefined : 'Title is required',
      url: !normalized ? 'URL is required' : isWebUrl(normalized) ? undefined : 'Only http and https addresses can be quick links',
    };
    setErrors(next);
    if (next.title || next.url) return;
    onSubmit({ title: title.trim(), url: normalized, icon });
  };

  return (
    <Stack gap="sm" component="form" onSubmit={(e) => (e.preventDefault(), submit())}>
      <TextInput
        label="Title"
        value={title}
        onChange={(e) => setTitle(e.currentTarget.value)}
        error={errors.title}
        maxLength={QUICK_LINK_TITLE_MAX}
        data-autofocus
        data-testid="quick-link-title"
      />
      <TextInput
        label="URL"
        placeholder="https://..."
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
        error={errors.url}
        maxLength={QUICK_LINK_URL_MAX}
        data-testid="quick-link-url"
      />
      <Select
        label="Icon"
        data={QUICK_LINK_ICONS.map((name) => ({ value: name, label: QUICK_LINK_ICON_LABELS[name] }))}
        value={icon}
        onChange={(value) => setIcon(value ?? 'link')}
        allowDeselect={false}
        leftSection={<QuickLinkIcon icon={icon} />}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={saving} data-testid="quick-link-save">
          Save
        </Button>
      </Group>
    </Stack>
  );
}
