"""The browser libraries the site serves as its own static files (never from a CDN), fetched
from the npm registry at install time and checked against their published integrity.

* Pyodide: CPython in WebAssembly. The recorder page runs the rules engine in it while the phone
  is offline (``tournaments/matches/live/board.py``), so there is one engine, not a second one
  written in JavaScript.
* Workbox: the recorder's service worker (``templates/live/service_worker.js``) precaches the
  page's files with it and answers from the cache when the network is gone.

``python -m nardy_site.vendor`` (``make install``) puts them under ``static/vendor/`` (not kept
in git); it does nothing for a package whose files are there already.
"""

from __future__ import annotations

import base64
import hashlib
import io
import sys
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

VENDOR_ROOT = Path(__file__).resolve().parents[1] / "static" / "vendor"
REGISTRY = "https://registry.npmjs.org"


@dataclass(frozen=True)
class Package:
    """``files`` of the npm package ``name`` at ``version`` (paths inside its ``package/``),
    kept under ``static/vendor/<folder>/`` by their base names."""

    name: str
    version: str
    integrity: str
    folder: str
    files: tuple[str, ...]

    @property
    def url(self) -> str:
        return f"{REGISTRY}/{self.name}/-/{self.name}-{self.version}.tgz"

    @property
    def target(self) -> Path:
        return VENDOR_ROOT / self.folder


PYODIDE_VERSION = "314.0.7"
WORKBOX_VERSION = "7.4.1"
PACKAGES = (
    Package(
        "pyodide",
        PYODIDE_VERSION,
        "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
        "pyodide",
        (
            "pyodide.mjs",
            "pyodide.mjs.map",
            "pyodide.asm.mjs",
            "pyodide.asm.wasm",
            "python_stdlib.zip",
            "pyodide-lock.json",
            "README.md",
        ),
    ),
    *(
        # Each with its source map, which the static files' manifest storage asks for.
        Package(
            name,
            WORKBOX_VERSION,
            integrity,
            "workbox",
            (f"build/{build}", f"build/{build}.map", "LICENSE"),
        )
        for name, build, integrity in (
            (
                "workbox-sw",
                "workbox-sw.js",
                "sha512-fez5f2DUlDJWTFYkCWQpY10N8gtztd849NswCbVFk0QlcSM4HT5A8x4g4ii650yem4I8tHY0R7JZahwp3ltIPw==",
            ),
            (
                "workbox-core",
                "workbox-core.prod.js",
                "sha512-DT+vu46eh/2vRsSHTY4Xmc32Z1rr9PRlQUXr1Dx30ZuXRWwOsvZgGgcwxcasubQLQmbTNYZjv44LkBAQ4tT5tQ==",
            ),
            (
                "workbox-precaching",
                "workbox-precaching.prod.js",
                "sha512-cdr/9qByww7yzEp7zg/qI4ukUrrNjQLgN+ONQRpjy/VqGQXwkgHwr00KksGJK8v0VifwDXBb8a4cWNZH71jn3Q==",
            ),
            (
                "workbox-routing",
                "workbox-routing.prod.js",
                "sha512-yubJGErZOusuidAenaL5ypfhQOa7urxP/f8E0ws7FPb4039RiWXUWBAyUkmUoOL/BcQGen3h0J8872d51IYxtA==",
            ),
            (
                "workbox-strategies",
                "workbox-strategies.prod.js",
                "sha512-GZxpaw9NbmOelj7667uZ2kpk5BFpOGbO4X0qjwh5ls8XQ8C+Lha5LQchTiUzsTFSS+NlUpftYAyOVXvQUrcqOQ==",
            ),
        )
    ),
)


def kept_name(package: Package, name: str) -> str:
    """A file's name under ``static/vendor``: its own, but each package's licence apart."""
    base = Path(name).name
    return f"LICENSE.{package.name}" if base == "LICENSE" else base


def present(package: Package) -> bool:
    return all((package.target / kept_name(package, name)).exists() for name in package.files)


def verified(package: Package, data: bytes) -> bytes:
    algorithm, _, expected = package.integrity.partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if digest != expected:
        raise SystemExit(f"{package.url}: integrity {algorithm}-{digest}, expected {expected}")
    return data


def install(package: Package) -> None:
    with urllib.request.urlopen(package.url, timeout=120) as response:
        data = verified(package, response.read())
    package.target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for name in package.files:
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise SystemExit(f"{package.url}: no file package/{name}")
            (package.target / kept_name(package, name)).write_bytes(member.read())


def main() -> None:
    for package in PACKAGES:
        if not present(package):
            print(f"vendor: {package.name} {package.version}", file=sys.stderr)
            install(package)


if __name__ == "__main__":
    main()
