"""stud-shuffle-v1 and the deck Merkle tree: the Python reference (docs/fairness.md).

Standard library only. Everything here is a pure function of its inputs, so the
service (C++), this module and the browser verifier (web/client/src/fairness.ts)
must agree byte for byte; tests/data/fairness/vectors.json pins them together.

Derivation (HKDF-Extract, then NIST SP 800-108 counter-mode HMAC-SHA256):
  PRK     = HMAC-SHA256(key="stud-shuffle-v1", msg=server_seed)
  context = LP(hand_id) || u8(n) || LP(seeds[0]) || ... || LP(seeds[n-1])
  T(label, k) = HMAC-SHA256(PRK, LP(label) || context || u32be(k)),  k = 0, 1, ...
  Stream(label) = T(label, 0) || T(label, 1) || ...
Deck Merkle tree: RFC 6962 shape, leaf(p) = SHA-256(0x00 || u8(p) || code || salt[p]),
node(l, r) = SHA-256(0x01 || l || r).
"""

import hashlib
import hmac
import struct

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52
SALT_BYTES = 16
SHUFFLE_KEY = b"stud-shuffle-v1"


def card_code(index):
    """Card index (rank*4 + suit) -> two-character code, 0 -> "2c", 51 -> "As"."""
    if not 0 <= index < DECK_SIZE:
        raise ValueError("card index %r out of range" % (index,))
    return RANKS[index // 4] + SUITS[index % 4]


def card_index(code):
    """Two-character code -> card index; ValueError on anything else."""
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise ValueError("not a card code: %r" % (code,))
    return RANKS.index(code[0]) * 4 + SUITS.index(code[1])


def lp(data):
    """4-byte big-endian length, then the bytes."""
    return struct.pack(">I", len(data)) + data


def sha256(data):
    return hashlib.sha256(data).digest()


def prk(server_seed):
    return hmac.new(SHUFFLE_KEY, server_seed, hashlib.sha256).digest()


def context(hand_id, seeds):
    """LP(hand_id) || u8(n) || LP(seeds[0]) || ...; seeds in seat order, b"" = none."""
    if not 0 < len(seeds) < 256:
        raise ValueError("between 1 and 255 seats")
    for s in seeds:
        if len(s) > 64:
            raise ValueError("a player seed is at most 64 bytes")
    return lp(hand_id) + bytes([len(seeds)]) + b"".join(lp(s) for s in seeds)


class Stream:
    """Stream(label) = T(label, 0) || T(label, 1) || ..., read front to back."""

    def __init__(self, key, label, ctx):
        self._key = key
        self._prefix = lp(label) + ctx
        self._counter = 0
        self._buf = b""

    def read(self, n):
        while len(self._buf) < n:
            block = hmac.new(self._key, self._prefix + struct.pack(">I", self._counter),
                             hashlib.sha256).digest()
            self._buf += block
            self._counter += 1
        out, self._buf = self._buf[:n], self._buf[n:]
        return out


def uniform(read4, m):
    """Uniform integer in [0, m) by rejection: no modulo bias. read4() gives 4 bytes."""
    if not 1 <= m <= DECK_SIZE:
        raise ValueError("m out of range")
    limit = 2**32 - (2**32 % m)
    while True:
        u = struct.unpack(">I", read4())[0]
        if u < limit:
            return u % m


def permutation(stream):
    """Fisher-Yates over [0..51] from i = 51 down to 1, j = uniform(i+1)."""
    a = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = uniform(lambda: stream.read(4), i + 1)
        a[i], a[j] = a[j], a[i]
    return a


class Derived:
    """Everything stud-shuffle-v1 derives for one hand."""

    def __init__(self, server_seed, hand_id, seeds):
        key = prk(server_seed)
        ctx = context(hand_id, seeds)
        self.prk = key
        self.context = ctx
        self.deck = permutation(Stream(key, b"deck", ctx))  # card indexes by position
        self.recycle_order = permutation(Stream(key, b"recycle", ctx))
        salt = Stream(key, b"salt", ctx).read(SALT_BYTES * DECK_SIZE)
        self.salts = [salt[SALT_BYTES * p:SALT_BYTES * (p + 1)] for p in range(DECK_SIZE)]
        self.server_seed_commitment = sha256(server_seed)
        self.leaves = [leaf_hash(p, card_code(self.deck[p]), self.salts[p])
                       for p in range(DECK_SIZE)]
        self.root = merkle_root(self.leaves)

    def codes(self):
        return [card_code(c) for c in self.deck]

    def proof(self, position):
        """The card proof of one position: {position, card, salt, path}."""
        return {"position": position, "card": card_code(self.deck[position]),
                "salt": self.salts[position], "path": audit_path(position, self.leaves)}


def leaf_hash(position, code, salt):
    if not 0 <= position < 256 or len(salt) != SALT_BYTES:
        raise ValueError("bad leaf input")
    return sha256(b"\x00" + bytes([position]) + code.encode("ascii") + salt)


def node_hash(left, right):
    return sha256(b"\x01" + left + right)


def _split(n):
    k = 1
    while k * 2 < n:
        k *= 2
    return k  # the largest power of two < n (n > 1)


def merkle_root(leaves):
    """RFC 6962 MTH over already-hashed leaves."""
    if len(leaves) == 1:
        return leaves[0]
    k = _split(len(leaves))
    return node_hash(merkle_root(leaves[:k]), merkle_root(leaves[k:]))


def audit_path(m, leaves):
    """RFC 6962 section 2.1.1 PATH(m, D[n]): sibling hashes from the leaf up."""
    n = len(leaves)
    if n <= 1:
        return []
    k = _split(n)
    if m < k:
        return audit_path(m, leaves[:k]) + [merkle_root(leaves[k:])]
    return audit_path(m - k, leaves[k:]) + [merkle_root(leaves[:k])]


def root_from_path(position, leaf, path, tree_size=DECK_SIZE):
    """RFC 9162 section 2.1.3.2: the root implied by a leaf and its audit path, or
    None when the path cannot belong to that position in a tree of that size."""
    if not 0 <= position < tree_size:
        return None
    fn, sn, r = position, tree_size - 1, leaf
    for p in path:
        if len(p) != 32 or sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def verify_card(root, position, code, salt, path):
    """True when the card proof leads to root (and only then)."""
    try:
        card_index(code)
        leaf = leaf_hash(position, code, salt)
    except ValueError:
        return False
    got = root_from_path(position, leaf, path)
    return got is not None and hmac.compare_digest(got, root)
