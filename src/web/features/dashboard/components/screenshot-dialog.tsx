import { Anchor, Button, Group, Image, Loader, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconBrandFacebook, IconBrandLinkedin, IconBrandX, IconCopy, IconDownload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTraderTime } from '../../../shared/trader-clock';
import { notifyError, notifySuccess } from '../api';
import { captureDashboard } from './capture-dashboard';

/** A default share title and hashtags (the spec does not show them; these are ours). */
export const DEFAULT_SHARE_TITLE = 'My trading dashboard on Edgebook';
export const DEFAULT_HASHTAGS = 'trading, tradingjournal, Edgebook';

/** Each hashtag gets a '#' prefix when it has none. */
export function toHashtags(input: string): string[] {
  return input
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t) => (t.startsWith('#') ? t : `#${t}`));
}

export function buildShareLinks(title: string, hashtags: string[], pageUrl: string) {
  const text = [title, ...hashtags].filter(Boolean).join(' ');
  return {
    x: `https://x.com/intent/post?${new URLSearchParams({ text })}`,
    linkedin: `https://www.linkedin.com/feed/?${new URLSearchParams({ shareActive: 'true', text })}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?${new URLSearchParams({ u: pageUrl, quote: text })}`,
  };
}

/** Capture, preview, then download, copy or share. */
export function ScreenshotDialog({ opened, onClose, targetId }: { opened: boolean; onClose: () => void; targetId: string }) {
  const [blob, setBlob] = useState<Blob | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [capturing, setCapturing] = useState(false);
  const [failed, setFailed] = useState(false);
  const [title, setTitle] = useState(DEFAULT_SHARE_TITLE);
  const [tags, setTags] = useState(DEFAULT_HASHTAGS);
  const [hideMoney, setHideMoney] = useState(false);
  const clock = useTraderTime();

  useEffect(() => {
    if (!opened) return;
    let cancelled = false;
    const target = document.getElementById(targetId);
    setCapturing(true);
    setFailed(false);
    // Let the modal's own overlay settle out of the way; the capture clones the dashboard, not the modal.
    const timer = window.setTimeout(() => {
      if (!target) {
        setCapturing(false);
        setFailed(true);
        notifyError('Failed to capture screenshot');
        return;
      }
      captureDashboard(target, { hideMoney })
        .then((result) => {
          if (cancelled) return;
          setBlob(result);
          setUrl(URL.createObjectURL(result));
        })
        .catch(() => {
          if (cancelled) return;
          setFailed(true);
          notifyError('Failed to capture screenshot');
        })
        .finally(() => !cancelled && setCapturing(false));
    }, 50);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [opened, targetId, hideMoney]);

  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );

  const close = () => {
    setBlob(null);
    setUrl(null);
    onClose();
  };

  const copy = async () => {
    if (!blob) return;
    if (!navigator.clipboard || typeof window.ClipboardItem === 'undefined') {
      notifyError('Clipboard not available. Try Download, then copy manually.');
      return;
    }
    try {
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
      notifySuccess('Screenshot copied to clipboard');
    } catch {
      notifyError('Failed to copy. Try Download, then paste manually.');
    }
  };

  const hashtags = toHashtags(tags);
  const links = buildShareLinks(title, hashtags, window.location.origin);
  const fileName = `edgebook-dashboard-${clock.today(new Date())}.png`;

  return (
    <Modal opened={opened} onClose={close} title="Share your dashboard" size="xl" centered>
      <Stack>
        <div data-testid="screenshot-preview">
          {capturing ? (
            <Group justify="center" p="xl">
              <Loader role="status" aria-label="Capturing the dashboard" />
              <Text c="dimmed">Capturing…</Text>
            </Group>
          ) : failed || !url ? (
            <Text c="var(--mantine-color-error)" ta="center" p="lg">
              Failed to capture screenshot
            </Text>
          ) : (
            <Image src={url} alt="Preview of your dashboard" radius="sm" mah={380} fit="contain" />
          )}
        </div>
        <Switch
          label="Hide dollar amounts"
          description="Amounts become blank bars in the picture; the green and red days stay."
          checked={hideMoney}
          onChange={(e) => setHideMoney(e.currentTarget.checked)}
          data-testid="screenshot-hide-money"
          data-autofocus
        />
        <TextInput label="Title" value={title} onChange={(e) => setTitle(e.currentTarget.value)} maxLength={200} />
        <TextInput
          label="Hashtags"
          description="Separated by spaces or commas; a # is added when missing."
          value={tags}
          onChange={(e) => setTags(e.currentTarget.value)}
          maxLength={300}
        />
        <Text size="sm" c="dimmed" data-testid="share-text">
          {[title, ...hashtags].join(' ')}
        </Text>
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Button
              component="a"
              href={url ?? undefined}
              download={fileName}
              leftSection={<IconDownload size={16} aria-hidden="true" />}
              disabled={!url}
              data-testid="screenshot-download"
            >
              Download
            </Button>
            <Button variant="light" leftSection={<IconCopy size={16} aria-hidden="true" />} onClick={() => void copy()} disabled={!blob}>
              Copy
            </Button>
          </Group>
          <Group gap="xs">
            <Anchor href={links.x} target="_blank" rel="noopener noreferrer" aria-label="Share on X">
              <IconBrandX size={22} aria-hidden="true" />
            </Anchor>
            <Anchor href={links.linkedin} target="_blank" rel="noopener noreferrer" aria-label="Share on LinkedIn">
              <IconBrandLinkedin size={22} aria-hidden="true" />
            </Anchor>
            <Anchor href={links.facebook} target="_blank" rel="noopener noreferrer" aria-label="Share on Facebook">
              <IconBrandFacebook size={22} aria-hidden="true" />
            </Anchor>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
