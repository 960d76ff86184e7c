import { Anchor, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { formatUsd } from '../../../domain/cents';
import { ACCOUNT_KIND_LABELS } from '../../../domain/prop/labels';
import { PROP_TEMPLATES, findPropTemplate } from '../../../domain/prop/templates';
import type { TradingAccount } from '../../shared/api';
import type { BrokerAccount } from './api';

/** A broker account about to be mapped to a trading account without prop rules. */
export interface PropOffer {
  account: BrokerAccount;
  target: TradingAccount;
}

interface PropOfferModalProps {
  offer: PropOffer | null;
  label: string;
  busy: boolean;
  /** Maps the account; with a template, makes the trading account a prop account of it in the same request. */
  onMap: (templateId: string | null) => void;
  /** Closed without a choice: nothing is mapped. */
  onCancel: () => void;
}

const firms = [...new Set(PROP_TEMPLATES.map((t) => t.firm))];
const templateOptions = firms.map((firm) => ({
  group: firm,
  items: PROP_TEMPLATES.filter((t) => t.firm === firm).map((t) => ({ value: t.id, label: `${t.firm} ${t.plan}` })),
}));

/**
 * While mapping a prop firm's account, the offer to follow its rules. The plan its name or
 * balance says is chosen already; the trader may pick another, or decline and map the account as it is.
 */
export function PropOfferModal({ offer, label, busy, onMap, onCancel }: PropOfferModalProps) {
  return (
    <Modal opened={offer !== null} onClose={onCancel} title="Track it as a prop account?" centered data-testid="prop-offer">
      {/* Keyed by the offer: each one starts from its own suggestion. */}
      {offer && <OfferBody key={`${offer.account.id}|${offer.target.id}`} offer={offer} label={label} busy={busy} onMap={onMap} />}
    </Modal>
  );
}

function OfferBody({ offer, label, busy, onMap }: { offer: PropOffer; label: string; busy: boolean; onMap: (templateId: string | null) => void }) {
  const suggested = offer.account.suggested_template_id;
  const [templateId, setTemplateId] = useState<string | null>(suggested);
  const template = templateId ? findPropTemplate(templateId) : undefined;
  return (
    <Stack gap="sm">
      <Text size="sm">
        {suggested && template?.id === suggested
          ? `${offer.account.name} looks like a ${template.firm} ${template.plan} account. `
          : `Choose the plan ${offer.account.name} follows at ${label}. `}
        Edgebook can check its trades against the plan&apos;s rules (profit target, drawdown, contracts, hours) as they sync.
      </Text>
      <Select
        label="Plan"
        placeholder="Choose a plan"
        data={templateOptions}
        value={templateId}
        onChange={setTemplateId}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="prop-offer-template"
      />
      {template && (
        <Text size="xs" c="dimmed" data-testid="prop-offer-summary">
          {offer.target.name} becomes a {template.firm} {ACCOUNT_KIND_LABELS[template.kind].toLowerCase()} account of {formatUsd(template.sizeCents)},
          starting at {formatUsd(template.sizeCents)}, with the plan&apos;s rules as checked on {template.checkedOn} (
          <Anchor href={template.sourceUrl} target="_blank" rel="noopener noreferrer" size="xs">
            {new URL(template.sourceUrl).hostname}
          </Anchor>
          ). The firm&apos;s own terms are authoritative: edit any figure on its Rules &amp; Status page.
        </Text>
      )}
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={() => onMap(null)} disabled={busy} data-testid="prop-offer-decline">
          Not a prop account
        </Button>
        <Button onClick={() => template && onMap(template.id)} disabled={!template} loading={busy} data-testid="prop-offer-accept">
          Add the rules
        </Button>
      </Group>
    </Stack>
  );
}
