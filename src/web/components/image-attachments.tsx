import { ActionIcon, Anchor, Button, FileButton, Group, Image, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import type { QueryKey } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { ApiError } from '../lib/api';
import { useAttachmentMutations, type Attachment, type AttachmentTarget } from '../shared/api';
import classes from './image-attachments.module.css';

/** Image types the server accepts (it checks the bytes; this only filters the file picker). */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif';

export interface ImageAttachmentsText {
  /** The URL button: 'Attach Image' in the notebook, 'Add' on a trade. */
  addLabel: string;
  added: string;
  failed: string;
  /** Shown when there is none, e.g. 'No attachments yet.' */
  empty?: string;
  /** Why nothing can be attached yet (an unsaved note). */
  disabledHint?: string;
}

interface ImageAttachmentsProps {
  target: AttachmentTarget | null;
  attachments: Attachment[];
  /** Queries that show these attachments, refetched after a change. */
  invalidate: QueryKey[];
  text: ImageAttachmentsText;
  testId?: string;
}

const errorText = (error: unknown) => (error instanceof ApiError && !/^Request failed/.test(error.message) ? error.message : undefined);

/**
 * Images on a note or a trade: by URL (Image URL with Attach Image / Add; nothing happens for an empty
 * URL or an unsaved note) or by choosing or dropping a file. Each opens full size in a new tab.
 */
export function ImageAttachments({ target, attachments, invalidate, text, testId = 'attachments' }: ImageAttachmentsProps) {
  const [url, setUrl] = useState('');
  const [dragging, setDragging] = useState(false);
  const { addUrl, upload, remove } = useAttachmentMutations(invalidate);
  const busy = addUrl.isPending || upload.isPending;

  const notifyAdded = () => notifications.show({ color: 'teal', message: text.added });
  const notifyFailed = (error: unknown) => {
    const detail = errorText(error);
    notifications.show({ color: 'red', title: detail ? text.failed : undefined, message: detail ?? text.failed });
  };

  const attachUrl = () => {
    const value = url.trim();
    if (!value || !target) return;
    addUrl.mutate(
      { target, url: value },
      {
        onSuccess: () => {
          setUrl('');
          notifyAdded();
        },
        onError: notifyFailed,
      },
    );
  };

  const uploadFiles = (files: File[]) => {
    if (!target) return;
    for (const file of files) upload.mutate({ target, file }, { onSuccess: notifyAdded, onError: notifyFailed });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    uploadFiles([...event.dataTransfer.files]);
  };

  return (
    <Stack
      gap="sm"
      data-testid={testId}
      className={classes.dropArea}
      data-dragging={dragging || undefined}
      onDragOver={(event) => {
        if (!target || ![...event.dataTransfer.types].includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          label="Image URL"
          placeholder="https://..."
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              attachUrl();
            }
          }}
          disabled={!target}
          className={classes.urlInput}
          maxLength={2000}
          data-testid={`${testId}-url`}
        />
        <Button variant="default" onClick={attachUrl} disabled={!target} loading={addUrl.isPending} data-testid={`${testId}-add`}>
          {text.addLabel}
        </Button>
        <FileButton onChange={(files) => uploadFiles(files)} accept={IMAGE_ACCEPT} multiple disabled={!target}>
          {(props) => (
            <Button
              {...props}
              variant="light"
              leftSection={<IconPhotoUp size={16} aria-hidden="true" />}
              loading={upload.isPending}
              disabled={!target}
              data-testid={`${testId}-upload`}
            >
              Upload image
            </Button>
          )}
        </FileButton>
      </Group>
      {!target && text.disabledHint ? (
        <Text size="xs" c="dimmed">
          {text.disabledHint}
        </Text>
      ) : (
        <Text size="xs" c="dimmed">
          PNG, JPEG, WebP or GIF up to 10 MB: choose a file or drop it here.
        </Text>
      )}
      {attachments.length === 0 ? (
        text.empty ? (
          <Text size="sm" c="dimmed" data-testid={`${testId}-empty`}>
            {text.empty}
          </Text>
        ) : null
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="xs" data-testid={`${testId}-grid`} aria-busy={busy || undefined}>
          {attachments.map((attachment) => (
            <div key={attachment.id} className={classes.tile} data-testid={`${testId}-item`}>
              <Anchor href={attachment.url} target="_blank" rel="noopener noreferrer" aria-label={`Open image ${attachment.caption ?? ''}`.trim()}>
                <Image src={attachment.url} alt={attachment.caption ?? 'Attached image'} h={110} fit="cover" radius="sm" loading="lazy" />
              </Anchor>
              <ActionIcon
                className={classes.remove}
                color="red"
                variant="filled"
                size="sm"
                aria-label="Remove image"
                onClick={() => remove.mutate(attachment.id, { onError: notifyFailed })}
              >
                <IconTrash size={14} aria-hidden="true" />
              </ActionIcon>
            </div>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
