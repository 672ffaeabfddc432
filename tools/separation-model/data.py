"""Multitrack songs from the project's generator (bench/src/eval-set), read into memory for training."""
import json
import os
import struct

import numpy as np

from model import SOURCES


def read_wav(path):
    """float32 / int16 / int24 PCM WAV -> float32 [channels, frames]."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError(f"{path} is not a WAV file")
    pos, fmt, body = 12, None, None
    while pos + 8 <= len(data):
        cid, size = data[pos : pos + 4], struct.unpack("<I", data[pos + 4 : pos + 8])[0]
        chunk = data[pos + 8 : pos + 8 + size]
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", chunk[:16])
        elif cid == b"data":
            body = chunk
        pos += 8 + size + (size & 1)
    if fmt is None or body is None:
        raise ValueError(f"{path}: no fmt/data chunk")
    tag, channels, _rate, _, _, bits = fmt
    if tag == 0xFFFE:  # WAVE_FORMAT_EXTENSIBLE: the sub-format says float or PCM
        tag = 3 if bits == 32 and b"\x03\x00\x00\x00\x00\x00\x10\x00" in data[:200] else 1
    if tag == 3 and bits == 32:
        samples = np.frombuffer(body, "<f4")
    elif tag == 1 and bits == 16:
        samples = np.frombuffer(body, "<i2").astype(np.float32) / 32768.0
    else:
        raise ValueError(f"{path}: unsupported WAV format tag {tag} bits {bits}")
    return np.ascontiguousarray(samples.reshape(-1, channels).T.astype(np.float32))


def load_set(root, limit=None):
    """Every track of a generated set: [{id, stems: float32 [4, 2, N]}] (SOURCES order)."""
    with open(os.path.join(root, "index.json")) as f:
        index = json.load(f)
    tracks = []
    for entry in index["tracks"][:limit]:
        stems = np.stack([read_wav(os.path.join(root, entry["id"], f"{s}.wav")) for s in SOURCES])
        tracks.append({"id": entry["id"], "stems": stems})
    return tracks


class Sampler:
    """Random excerpts with stem remixing and level/channel augmentation (numpy, seeded)."""

    def __init__(self, tracks, excerpt_samples, seed, remix_probability=0.5):
        self.tracks = tracks
        self.excerpt = excerpt_samples
        self.rng = np.random.default_rng(seed)
        self.remix = remix_probability

    def _excerpt(self, track, source):
        stems = track["stems"]
        n = stems.shape[-1]
        for _ in range(8):
            start = int(self.rng.integers(0, n - self.excerpt))
            piece = stems[source, :, start : start + self.excerpt]
            # Prefer an excerpt where the source actually plays (most do).
            if np.mean(piece * piece) > 1e-7 or _ == 7:
                return piece

    def batch(self, size):
        out = np.zeros((size, 4, 2, self.excerpt), np.float32)
        for b in range(size):
            base = self.tracks[int(self.rng.integers(len(self.tracks)))]
            remix = self.rng.random() < self.remix
            for s in range(4):
                track = self.tracks[int(self.rng.integers(len(self.tracks)))] if remix else base
                piece = self._excerpt(track, s)
                gain = 10 ** (self.rng.uniform(-6, 4) / 20)
                if self.rng.random() < 0.5:
                    piece = piece[::-1]
                out[b, s] = piece * gain
            # Keep mixture levels in a realistic range (peaks near full scale, sometimes quieter).
            peak = np.max(np.abs(out[b].sum(axis=0))) + 1e-9
            out[b] *= 10 ** (self.rng.uniform(-12, -1) / 20) / peak
        return out
