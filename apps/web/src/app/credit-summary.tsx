import { Group, Skeleton, Text, Tooltip } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { walletQueryOptions } from '../features/wallet/wallet.queries';
import { formatRupiahNumber } from '../shared/display-format';

/** Chat credit and bonus of the client, kept fresh by the navigation guard. */
export function CreditSummary({ clientId }: { clientId: string }) {
  const { t } = useTranslation();
  const wallet = useQuery(walletQueryOptions(clientId));
  if (wallet.isPending) return <Skeleton height={32} width={210} radius="xl" />;
  const credit = wallet.data?.chatCredit;
  const text = t('header.creditSummary', {
    balance: credit ? formatRupiahNumber(credit.balance) : t('common.notAvailable'),
    bonus: credit ? formatRupiahNumber(credit.balanceBonus) : t('common.notAvailable'),
  });
  return (
    <Tooltip label={t('header.chatCredit')} withArrow openDelay={400}>
      <Group
        gap={8}
        wrap="nowrap"
        px={14}
        h={34}
        data-testid="credit-summary"
        style={{
          borderRadius: 999,
          background: 'var(--mantine-color-brand-0)',
          border: '1px solid var(--mantine-color-brand-1)',
        }}
      >
        <IconCoins size={17} stroke={1.8} color="var(--mantine-color-brand-7)" aria-hidden />
        <Text
          size="sm"
          fw={600}
          c="brand.9"
          style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
        >
          {text}
        </Text>
      </Group>
    </Tooltip>
  );
}
