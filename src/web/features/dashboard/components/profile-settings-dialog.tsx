import { ActionIcon, Alert, Avatar, Button, Divider, FileButton, Group, Loader, Modal, Slider, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { IconPhoto, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { TimeZoneSetting } from '../../../components/time-zone-setting';
import { TradingDaySetting } from '../../../components/trading-day-setting';
import { profileQuery, type Profile } from '../../../shared/api';
import { DataSettings, SecuritySettings } from '../../account-settings';
import { SharedLinksSettings } from '../../sharing';
import { MentorsSettings } from '../../mentors';
import { notifyError, useUpdateProfile, useUploadAvatar } from '../api';
import { ACCEPTED_IMAGE_TYPES, MAX_ZOOM, MIN_ZOOM, checkImageFile, cropToJpeg, stepZoom } from './crop-image';
import { avatarSrc, profileName } from '../../../shared/profile-names';
import classes from '../dashboard.module.css';

/**
 * Display, first and last name; a picture chosen, cropped (zoom and drag), then uploaded. Beside it
 * the account controls: password, sessions, two-factor, export and delete.
 */
export function ProfileSettingsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const profile = useQuery({ ...profileQuery, enabled: opened });
  useEffect(() => {
    if (opened && profile.isError) notifyError('Failed to load profile');
  }, [opened, profile.isError]);
  return (
    <Modal opened={opened} onClose={onClose} title="Profile Settings" centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="profile">Profile</Tabs.Tab>
          <Tabs.Tab value="security" data-testid="settings-security-tab">
            Security
          </Tabs.Tab>
          <Tabs.Tab value="data" data-testid="settings-data-tab">
            Your Data
          </Tabs.Tab>
          <Tabs.Tab value="shared" data-testid="settings-shared-tab">
            Shared Links
          </Tabs.Tab>
          <Tabs.Tab value="mentors" data-testid="settings-mentors-tab">
            Mentors
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          {profile.isPending ? (
            <Group justify="center" p="lg">
              <Loader role="status" aria-label="Loading profile" />
            </Group>
          ) : profile.isError ? (
            <Text c="var(--mantine-color-error)">Failed to load profile</Text>
          ) : (
            <ProfileForm key={profile.data.updated_at} profile={profile.data} onClose={onClose} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <SecuritySettings />
        </Tabs.Panel>
        <Tabs.Panel value="data">
          <DataSettings />
        </Tabs.Panel>
        <Tabs.Panel value="shared">
          <SharedLinksSettings />
        </Tabs.Panel>
        <Tabs.Panel value="mentors">
          <MentorsSettings />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}

function ProfileForm({ profile, onClose }: { profile: Profile; onClose: () => void }) {
  const update = useUpdateProfile();
  const [displayName, setDisplayName] = useState(profile.display_name ?? '');
  const [firstName, setFirstName] = useState(profile.first_name ?? '');
  const [lastName, setLastName] = useState(profile.last_name ?? '');
  const [source, setSource] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (source) URL.revokeObjectURL(source);
    },
    [source],
  );

  const choose = (file: File | null) => {
    if (!file) return;
    const error = checkImageFile(file);
    setFileError(error);
    if (error) return;
    setSource(URL.createObjectURL(file));
  };

  if (source) return <AvatarCropper source={source} onDone={() => setSource(null)} />;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate({ display_name: displayName, first_name: firstName, last_name: lastName }, { onSuccess: onClose });
      }}
    >
      <Stack>
        <Group wrap="nowrap">
          <Avatar src={avatarSrc(profile)} size={72} radius="xl" color="indigo" alt="" data-testid="profile-dialog-avatar">
            {profileName(profile).slice(0, 1).toUpperCase()}
          </Avatar>
          <Stack gap={4}>
            <Text fw={600}>{profileName(profile)}</Text>
            <FileButton onChange={choose} accept={ACCEPTED_IMAGE_TYPES.join(',')}>
              {(props) => (
                <Button {...props} variant="light" size="xs" leftSection={<IconPhoto size={14} aria-hidden="true" />}>
                  Change picture
                </Button>
              )}
            </FileButton>
            <Text size="xs" c="dimmed">
              JPEG, PNG, WebP or GIF, under 10 MB.
            </Text>
          </Stack>
        </Group>
        {fileError && (
          <Alert color="red" variant="light" role="alert" data-testid="avatar-file-error">
            {fileError}
          </Alert>
        )}
        <TextInput label="Display Name" value={displayName} onChange={(e) => setDisplayName(e.currentTarget.value)} maxLength={100} data-autofocus />
        <Group grow>
          <TextInput label="First Name" value={firstName} onChange={(e) => setFirstName(e.currentTarget.value)} maxLength={100} />
          <TextInput label="Last Name" value={lastName} onChange={(e) => setLastName(e.currentTarget.value)} maxLength={100} />
        </Group>
        <Divider label="Clock and days" labelPosition="left" />
        <TimeZoneSetting />
        <TradingDaySetting />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Zoom 0.5 to 3 in 1.2x steps, drag to place; the result is a 200x200 JPEG at quality 0.9. */
function AvatarCropper({ source, onDone }: { source: string; onDone: () => void }) {
  const upload = useUploadAvatar();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [processing, setProcessing] = useState(false);

  const save = async () => {
    if (!area) return;
    setProcessing(true);
    let blob: Blob;
    try {
      blob = await cropToJpeg(source, area);
    } catch (error) {
      setProcessing(false);
      notifyError(
        error instanceof Error && error.message === 'Failed to load image' ? 'Failed to load image' : 'Failed to process image. Please try again.',
      );
      return;
    }
    setProcessing(false);
    upload.mutate(blob, { onSuccess: onDone });
  };

  return (
    <Stack>
      <div className={classes.cropArea} data-testid="avatar-cropper">
        <Cropper
          image={source}
          crop={crop}
          zoom={zoom}
          minZoom={MIN_ZOOM}
          maxZoom={MAX_ZOOM}
          aspect={1}
          cropShape="round"
          showGrid={false}
          restrictPosition={zoom >= 1}
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(_area, pixels) => setArea(pixels)}
        />
      </div>
      <Group gap="xs" wrap="nowrap">
        <ActionIcon variant="default" onClick={() => setZoom((z) => stepZoom(z, -1))} disabled={zoom <= MIN_ZOOM} aria-label="Zoom out">
          <IconZoomOut size={16} aria-hidden="true" />
        </ActionIcon>
        <Slider
          flex={1}
          min={MIN_ZOOM}
          max={MAX_ZOOM}
          step={0.01}
          value={zoom}
          onChange={setZoom}
          label={(v) => `${v.toFixed(2)}x`}
          // The name and value belong on the thumb, the element with role slider (it had neither).
          thumbLabel="Zoom"
          thumbValueText={(v) => `${v.toFixed(2)}x`}
        />
        <ActionIcon variant="default" onClick={() => setZoom((z) => stepZoom(z, 1))} disabled={zoom >= MAX_ZOOM} aria-label="Zoom in">
          <IconZoomIn size={16} aria-hidden="true" />
        </ActionIcon>
      </Group>
      <Text size="xs" c="dimmed">
        Drag the picture to place it; zoom with the buttons, the slider or the mouse wheel.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone} disabled={upload.isPending}>
          Cancel
        </Button>
        <Button onClick={() => void save()} loading={processing || upload.isPending} disabled={!area}>
          Save picture
        </Button>
      </Group>
    </Stack>
  );
}
