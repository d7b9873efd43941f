"""Discord's documented payload limits, as numbers, each where Discord's API reference states it.

Lengths are counted in Unicode code points, as Discord's API counts them (Python's
``len``). The sections named are those of Discord's developer documentation
(discord.com/developers/docs): "Message Resource" (Create Message, Embed Limits,
Allowed Mentions), "Component Reference", "Receiving and Responding" (interaction
callback data, modals, autocomplete), "Application Commands", "Uploading Files",
"Channel Resource" (Start Thread) and "Guild Scheduled Event".
"""

from __future__ import annotations

from typing import Final

# Message Resource: Create Message.
CONTENT: Final = 2000
EMBEDS: Final = 10
FILES: Final = 10
"""Attachments a message may carry."""

# Message Resource: Embed Limits.
EMBED_TITLE: Final = 256
EMBED_DESCRIPTION: Final = 4096
EMBED_FIELDS: Final = 25
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER_TEXT: Final = 2048
AUTHOR_NAME: Final = 256
EMBEDS_TOTAL: Final = 6000
"""Title, description, field names and values, footer and author across a message's embeds."""

# Component Reference (legacy components: action rows at the top level).
ACTION_ROWS: Final = 5
ROW_BUTTONS: Final = 5
BUTTON_LABEL: Final = 80
BUTTON_URL: Final = 512
CUSTOM_ID: Final = 100
SELECT_OPTIONS: Final = 25
OPTION_TEXT: Final = 100
"""A select option's label, value and description."""
PLACEHOLDER: Final = 150
SELECT_VALUES: Final = 25
V2_COMPONENTS: Final = 40
"""Components of a message flagged IS_COMPONENTS_V2, nested ones included."""
V2_TEXT: Final = 4000
"""Text across the text displays of such a message."""

# Receiving and Responding: modals; Component Reference: text input and label.
MODAL_TITLE: Final = 45
MODAL_COMPONENTS: Final = 5
INPUT_LABEL: Final = 45
LABEL_DESCRIPTION: Final = 100
INPUT_PLACEHOLDER: Final = 100
INPUT_VALUE: Final = 4000

# Application Commands.
COMMAND_NAME: Final = 32
COMMAND_DESCRIPTION: Final = 100
COMMAND_OPTIONS: Final = 25
"""Options of a command or subcommand, subcommands of a group, groups and subcommands of a command."""
CHOICES: Final = 25
CHOICE_NAME: Final = 100
CHOICE_VALUE: Final = 100
COMMAND_SIZE: Final = 8000
"""Names, descriptions and choice values of one command, its options and choices together."""
STRING_LENGTH: Final = 6000
"""The most a string option's ``min_length`` and ``max_length`` may say."""
COMMANDS: Final = 100
"""Slash commands in one scope (global, or one guild)."""

# Receiving and Responding: autocomplete (choices as above, 25 at most).
AUTOCOMPLETE_CHOICES: Final = 25

# Uploading Files: each file, for a bot in a server without boosts.
FILE_BYTES: Final = 10 * 1024 * 1024

# Channel Resource (a thread's name) and Guild Scheduled Event.
THREAD_NAME: Final = 100
EVENT_NAME: Final = 100
EVENT_DESCRIPTION: Final = 1000
