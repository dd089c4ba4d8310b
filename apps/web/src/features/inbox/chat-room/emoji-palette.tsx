import { ActionIcon, Popover, SimpleGrid, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconMoodSmile } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './chat-room.module.css';

/**
 * The emoji agents reach for most in customer service, in four groups. A full emoji
 * library weighs hundreds of kilobytes for symbols nobody sends to a customer.
 */
export const emojiGroups: ReadonlyArray<{ key: string; emoji: ReadonlyArray<string> }> = [
  {
    key: 'smileys',
    emoji: '😀 😃 😄 😁 😊 🙂 😉 😍 🥰 😘 😋 😎 🤗 🤩 🤔 😅 😂 🤣 😇 🥲 😌 😔 😢 😭 😮 😱 😴 🙏 😬 🙃'.split(
      ' ',
    ),
  },
  {
    key: 'gestures',
    emoji: '👍 👎 👌 ✌️ 🤝 👏 🙌 👋 💪 ☝️ 👉 🤞 ✋ 🫶 🙇'.split(' '),
  },
  {
    key: 'symbols',
    emoji: '❤️ 🧡 💛 💚 💙 💜 💯 ✅ ❌ ⚠️ ❗ ❓ ⭐ 🔥 ✨ 🎉'.split(' '),
  },
  {
    key: 'commerce',
    emoji: '📦 🚚 🛒 🛍️ 💳 💰 🧾 🏷️ 🎁 📞 📱 📧 📍 ⏰ 📅 🕒 🔔 📝 🔒 🏪'.split(' '),
  },
];

/** The emoji button of the composer: picks one emoji and hands it over for the cursor position. */
export function EmojiPalette({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} position="top-start" shadow="md" width={340} withArrow>
      <Popover.Target>
        <Tooltip label={t('chatRoom.composer.emoji')} withArrow disabled={opened}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('chatRoom.composer.emoji')}
            onClick={() => setOpened((value) => !value)}
            disabled={disabled}
          >
            <IconMoodSmile size={20} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <Stack gap={8} mah={280} style={{ overflowY: 'auto' }}>
          {emojiGroups.map((group) => (
            <Stack key={group.key} gap={2}>
              <Text size="xs" c="dimmed" fw={600} px={4}>
                {t(`chatRoom.emojiGroups.${group.key}`)}
              </Text>
              <SimpleGrid cols={9} spacing={2} verticalSpacing={2}>
                {group.emoji.map((emoji) => (
                  <UnstyledButton
                    key={emoji}
                    className={classes.emojiButton}
                    aria-label={emoji}
                    onClick={() => {
                      onPick(emoji);
                      setOpened(false);
                    }}
                  >
                    {emoji}
                  </UnstyledButton>
                ))}
              </SimpleGrid>
            </Stack>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
