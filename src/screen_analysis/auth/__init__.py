"""API key resolution, time-boxed keyring access, the opt-in key file and redaction.

Headless: never imports Textual or click. `keyring` is imported on first use only.
"""

from screen_analysis.auth.base_url import normalise_base_url
from screen_analysis.auth.errors import (
    AuthError,
    InsecureFileError,
    InsecureTransportError,
    InvalidBaseURLError,
    KeyringStoresNothingError,
    KeyringUnavailableError,
    NoKeyError,
)
from screen_analysis.auth.file_store import InsecureFileStore
from screen_analysis.auth.keystore import SERVICE, KeyStore
from screen_analysis.auth.masking import SecretRedactor, install_redactor, mask_key
from screen_analysis.auth.resolve import (
    KeySource,
    ResolvedKey,
    aresolve_api_key,
    env_api_key,
    resolve_api_key,
)
from screen_analysis.auth.transport_policy import check_transport, is_loopback_host

__all__ = [
    "SERVICE",
    "AuthError",
    "InsecureFileError",
    "InsecureFileStore",
    "InsecureTransportError",
    "InvalidBaseURLError",
    "KeySource",
    "KeyStore",
    "KeyringStoresNothingError",
    "KeyringUnavailableError",
    "NoKeyError",
    "ResolvedKey",
    "SecretRedactor",
    "aresolve_api_key",
    "check_transport",
    "env_api_key",
    "install_redactor",
    "is_loopback_host",
    "mask_key",
    "normalise_base_url",
    "resolve_api_key",
]
