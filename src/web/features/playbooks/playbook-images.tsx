import { Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ImageAttachments } from '../../components/image-attachments';
import { queryKeys } from '../../shared/api';
import { playbookImagesQuery } from './api';

/**
 * A playbook's images (chart examples of the setup), added by URL or file and removed, on its page
 * and in its edit dialog. A playbook not saved yet has none: the hint says why nothing can be added.
 */
export function PlaybookImages({ playbookId, testId = 'playbook-images' }: { playbookId: string | null; testId?: string }) {
  const images = useQuery({ ...playbookImagesQuery(playbookId ?? ''), enabled: playbookId !== null });
  if (playbookId !== null && images.isLoading) return <Loader size="sm" role="status" aria-label="Loading images" />;
  if (images.isError)
    return (
      <Text c="red" size="sm">
        The images could not be loaded.
      </Text>
    );
  return (
    <ImageAttachments
      target={playbookId === null ? null : { playbookId }}
      attachments={images.data ?? []}
      invalidate={playbookId === null ? [] : [queryKeys.playbooks.images(playbookId)]}
      text={{
        addLabel: 'Add',
        added: 'Image added',
        failed: 'Failed to add image',
        // A playbook not saved yet shows why instead.
        empty: playbookId === null ? undefined : 'No images yet: add a chart of this setup.',
        disabledHint: 'Save the playbook first, then add its images.',
      }}
      testId={testId}
    />
  );
}
