"""Modal dialogs: one frame (`DialogFrame`), one prompt, one choice, one progress, the
error and address dialogs.

Import each dialog from its module: importing the package loads none of them.
"""
