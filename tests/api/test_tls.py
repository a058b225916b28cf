"""The default certificates are read once per process while nothing about them changes, and
read again when the environment points elsewhere or the bundle is rewritten."""

from __future__ import annotations

import os
import ssl
from pathlib import Path

import certifi
import pytest

from screen_analysis.api import tls


@pytest.fixture
def plain_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    return monkeypatch


def bundle_copy(folder: Path, name: str = "ca.pem") -> Path:
    path = folder / name
    path.write_bytes(Path(certifi.where()).read_bytes())
    return path


def test_clients_share_one_context_of_certifis_bundle(plain_env: pytest.MonkeyPatch) -> None:
    first = tls.default_context()
    assert tls.default_context() is first
    assert first.verify_mode == ssl.CERT_REQUIRED and first.check_hostname
    certifis = ssl.create_default_context(cafile=certifi.where()).cert_store_stats()
    assert first.cert_store_stats() == certifis, "certifi's authorities, not the system's"


def test_ssl_cert_file_is_read_and_a_change_of_it_gives_a_new_context(
    plain_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    default = tls.default_context()
    path = bundle_copy(tmp_path)
    plain_env.setenv("SSL_CERT_FILE", str(path))
    from_file = tls.default_context()
    assert from_file is not default
    assert tls.default_context() is from_file
    plain_env.setenv("SSL_CERT_DIR", str(tmp_path))
    assert tls.default_context() is from_file, "SSL_CERT_FILE wins over SSL_CERT_DIR"

    first_authority = path.read_bytes().split(b"-----END CERTIFICATE-----")[0]
    path.write_bytes(first_authority + b"-----END CERTIFICATE-----\n")
    os.utime(path, ns=(1, 1))  # even a rewrite within the same clock tick is told apart
    rewritten = tls.default_context()
    assert rewritten is not from_file
    assert rewritten.cert_store_stats()["x509_ca"] == 1

    plain_env.delenv("SSL_CERT_FILE")
    plain_env.delenv("SSL_CERT_DIR")
    assert tls.default_context() is default


def test_ssl_cert_dir_is_used_when_no_file_is_named(
    plain_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    default = tls.default_context()
    plain_env.setenv("SSL_CERT_DIR", str(tmp_path))
    from_dir = tls.default_context()
    assert from_dir is not default
    assert from_dir.cert_store_stats()["x509_ca"] == 0, "a directory's certificates load on use"
    plain_env.setenv("SSL_CERT_DIR", str(tmp_path / "other"))
    assert tls.default_context() is not from_dir


def test_a_missing_bundle_fails_as_httpx_would_and_is_not_kept(
    plain_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "later.pem"
    plain_env.setenv("SSL_CERT_FILE", str(path))
    with pytest.raises(FileNotFoundError):
        tls.default_context()
    bundle_copy(tmp_path, "later.pem")
    assert tls.default_context().cert_store_stats()["x509_ca"] > 50
