"""Numba's kernel cache is cleared when any kernel module changes (fastttt.numba_cache), in a
folder of this test's own."""

from __future__ import annotations

import os

from fastttt.numba_cache import STAMP_NAME, clear_if_stale


def _kernels(tmp_path):
    kernels = tmp_path / "kernels"
    cache = kernels / "__pycache__"
    cache.mkdir(parents=True)
    (kernels / "lines.py").write_text("def f(): return 1\n")
    (kernels / "dfpn.py").write_text("def g(): return 2\n")
    (tmp_path / "config.py").write_text("JIT = {'cache': True}\n")
    return kernels, cache, [tmp_path / "config.py"]


def _cache_files(cache):
    names = ["dfpn._prove-120.py311.nbi", "dfpn._prove-120.py311.1.nbc", "lines.f-1.py311.nbi"]
    for name in names:
        (cache / name).write_bytes(b"compiled")
    return names


def test_a_changed_module_clears_every_kernel_cache_file_and_nothing_else(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    kernels, cache, config = _kernels(tmp_path)
    names = _cache_files(cache)
    others = ["dfpn.cpython-311.pyc", "other.f-1.py311.nbi", "notes.txt"]
    for name in others:
        (cache / name).write_bytes(b"not a kernel cache")
    assert clear_if_stale(kernels, config)  # no stamp yet: the cache may be stale
    assert sorted(p.name for p in cache.iterdir()) == sorted([*others, STAMP_NAME])
    _cache_files(cache)
    assert not clear_if_stale(kernels, config)  # the sources as stamped: the cache stays
    assert all((cache / name).exists() for name in names)
    (kernels / "lines.py").write_text("def f(): return 10\n")  # another size
    assert clear_if_stale(kernels, config)
    assert not any((cache / name).exists() for name in names)
    _cache_files(cache)
    stat = (kernels / "dfpn.py").stat()
    os.utime(kernels / "dfpn.py", ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # touched
    assert clear_if_stale(kernels, config)
    assert not any((cache / name).exists() for name in names)
    _cache_files(cache)
    config[0].write_text("JIT = {'cache': True, 'fastmath': True}\n")  # the options changed
    assert clear_if_stale(kernels, config)
    assert not any((cache / name).exists() for name in names)
    assert not clear_if_stale(kernels, config)
    assert not list(cache.glob("*.tmp"))


def test_a_cache_elsewhere_is_left_alone_and_errors_are_ignored(tmp_path, monkeypatch):
    kernels, cache, config = _kernels(tmp_path)
    names = _cache_files(cache)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert not clear_if_stale(kernels, config)
    assert all((cache / name).exists() for name in names)
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    (cache / STAMP_NAME).mkdir()  # the stamp cannot be written: the error is not raised
    assert not clear_if_stale(kernels, config)
    assert not any((cache / name).exists() for name in names)  # cleared before the write
    assert not list(cache.glob("*.tmp"))  # the partial stamp is gone
    (cache / STAMP_NAME).rmdir()
    (cache / STAMP_NAME).write_bytes(b"\xff\xfe not text")  # a stamp of another kind
    assert clear_if_stale(kernels, config)
