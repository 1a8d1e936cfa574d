"""Maximum-weight matching in a general graph: Edmonds' blossom algorithm, primal-dual, O(n^3).

The Dutch system (pairings.py) encodes its criteria, in their order, as integer edge weights and
takes the matching of greatest total weight, as FIDE-endorsed engines do. networkx has the same
algorithm but would not fit the Lambda package (infra/package.py), so it is written here.

Weights must be integers (Python ints: the Dutch weights are large). Every dual variable is kept
as twice its value so all arithmetic stays integral and exact.
"""

from __future__ import annotations

from typing import Iterable


def max_weight_matching(n: int, edges: Iterable[tuple[int, int, int]]) -> list[int]:
    """The matching of greatest total weight on vertices 0..n-1: ``mate[v]`` is v's partner or -1.
    Edges of weight <= 0 are never worth taking; parallel edges keep the heaviest."""
    best: dict[tuple[int, int], int] = {}
    for i, j, w in edges:
        if i == j:
            continue
        key = (i, j) if i < j else (j, i)
        if key not in best or w > best[key]:
            best[key] = w
    edge = [(i, j, 2 * w) for (i, j), w in best.items()]  # doubled: duals stay integers
    if not edge:
        return [-1] * n
    return _Blossom(n, edge).solve()


class _Blossom:
    def __init__(self, n: int, edge: list[tuple[int, int, int]]) -> None:
        self.n, self.edge = n, edge
        self.endpoint = [v for i, j, _ in edge for v in (i, j)]
        self.neighbend: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j, _) in enumerate(edge):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        top = max(0, max(w for _, _, w in edge))
        self.mate = [-1] * n
        self.label = [0] * (2 * n)  # 0 free, 1 S (outer), 2 T (inner); for vertices and blossoms
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int] | None] = [None] * (2 * n)
        self.base = list(range(n)) + [-1] * n
        self.endps: list[list[int] | None] = [None] * (2 * n)
        self.bestedge = [-1] * (2 * n)
        self.bestedges: list[list[int] | None] = [None] * (2 * n)
        self.unused = list(range(n, 2 * n))
        self.dual = [top // 2] * n + [0] * n  # top is even (doubled weights)
        self.allowed = [False] * len(edge)
        self.queue: list[int] = []

    def slack(self, k: int) -> int:
        i, j, w = self.edge[k]
        return self.dual[i] + self.dual[j] - w

    def leaves(self, b: int):
        if b < self.n:
            yield b
            return
        for t in self.childs[b]:
            yield from self.leaves(t)

    def assign(self, w: int, t: int, p: int) -> None:
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        self.labelend[w] = self.labelend[b] = p
        self.bestedge[w] = self.bestedge[b] = -1
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:
            base = self.base[b]
            self.assign(self.endpoint[self.mate[base]], 1, self.mate[base] ^ 1)

    def scan(self, v: int, w: int) -> int:
        """Trace back from v and w to find a new blossom's base, or -1 for an augmenting path."""
        path = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        v, w, _ = self.edge[k]
        bb, bv, bw = self.inblossom[base], self.inblossom[v], self.inblossom[w]
        b = self.unused.pop()
        self.base[b], self.parent[b] = base, -1
        self.parent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            v = self.endpoint[self.labelend[bv]]
            bv = self.inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            w = self.endpoint[self.labelend[bw]]
            bw = self.inblossom[w]
        self.childs[b], self.endps[b] = path, endps
        self.label[b], self.labelend[b], self.dual[b] = 1, self.labelend[bb], 0
        for u in self.leaves(b):
            if self.label[self.inblossom[u]] == 2:
                self.queue.append(u)
            self.inblossom[u] = b
        bestedgeto = [-1] * (2 * self.n)
        for sub in path:
            if self.bestedges[sub] is None:
                lists = [[p // 2 for p in self.neighbend[u]] for u in self.leaves(sub)]
            else:
                lists = [self.bestedges[sub]]
            for ks in lists:
                for kk in ks:
                    i, j, _ = self.edge[kk]
                    if self.inblossom[j] == b:
                        i, j = j, i
                    bj = self.inblossom[j]
                    if (bj != b and self.label[bj] == 1
                            and (bestedgeto[bj] == -1 or self.slack(kk) < self.slack(bestedgeto[bj]))):
                        bestedgeto[bj] = kk
            self.bestedges[sub] = None
            self.bestedge[sub] = -1
        self.bestedges[b] = [kk for kk in bestedgeto if kk != -1]
        self.bestedge[b] = -1
        for kk in self.bestedges[b]:
            if self.bestedge[b] == -1 or self.slack(kk) < self.slack(self.bestedge[b]):
                self.bestedge[b] = kk

    def expand(self, b: int, endstage: bool) -> None:
        for s in self.childs[b]:
            self.parent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            elif endstage and self.dual[s] == 0:
                self.expand(s, endstage)
            else:
                for u in self.leaves(s):
                    self.inblossom[u] = s
        if not endstage and self.label[b] == 2:
            entry = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
            childs, endps = self.childs[b], self.endps[b]
            j = childs.index(entry)
            if j & 1:
                j -= len(childs)
                step, shift = 1, 0
            else:
                step, shift = -1, 1
            p = self.labelend[b]
            while j != 0:
                self.label[self.endpoint[p ^ 1]] = 0
                self.label[self.endpoint[endps[j - shift] ^ shift ^ 1]] = 0
                self.assign(self.endpoint[p ^ 1], 2, p)
                self.allowed[endps[j - shift] // 2] = True
                j += step
                p = endps[j - shift] ^ shift
                self.allowed[p // 2] = True
                j += step
            bv = childs[j]
            self.label[self.endpoint[p ^ 1]] = self.label[bv] = 2
            self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
            self.bestedge[bv] = -1
            j += step
            while childs[j] != entry:
                bv = childs[j]
                if self.label[bv] == 1:
                    j += step
                    continue
                for v in self.leaves(bv):
                    if self.label[v] != 0:
                        break
                else:
                    v = -1
                if v != -1:
                    self.label[v] = 0
                    self.label[self.endpoint[self.mate[self.base[bv]]]] = 0
                    self.assign(v, 2, self.labelend[v])
                j += step
        self.label[b] = self.labelend[b] = -1
        self.childs[b] = self.endps[b] = None
        self.base[b] = -1
        self.bestedges[b] = None
        self.bestedge[b] = -1
        self.unused.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs, endps = self.childs[b], self.endps[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            step, shift = 1, 0
        else:
            step, shift = -1, 1
        while j != 0:
            j += step
            t = childs[j]
            p = endps[j - shift] ^ shift
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p])
            j += step
            t = childs[j]
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.childs[b] = childs[i:] + childs[:i]
        self.endps[b] = endps[i:] + endps[:i]
        self.base[b] = self.base[self.childs[b][0]]

    def augment(self, k: int) -> None:
        v, w, _ = self.edge[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = self.inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if self.labelend[bs] == -1:
                    break
                t = self.endpoint[self.labelend[bs]]
                bt = self.inblossom[t]
                s = self.endpoint[self.labelend[bt]]
                j = self.endpoint[self.labelend[bt] ^ 1]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = self.labelend[bt]
                p = self.labelend[bt] ^ 1

    def solve(self) -> list[int]:
        n = self.n
        for _ in range(n):
            self.label = [0] * (2 * n)
            self.bestedge = [-1] * (2 * n)
            for b in range(n, 2 * n):
                self.bestedges[b] = None
            self.allowed = [False] * len(self.edge)
            self.queue = []
            for v in range(n):
                if self.mate[v] == -1 and self.label[self.inblossom[v]] == 0:
                    self.assign(v, 1, -1)
            augmented = False
            while True:
                while self.queue and not augmented:
                    v = self.queue.pop()
                    for p in self.neighbend[v]:
                        k = p // 2
                        w = self.endpoint[p]
                        if self.inblossom[v] == self.inblossom[w]:
                            continue
                        if not self.allowed[k]:
                            kslack = self.slack(k)
                            if kslack <= 0:
                                self.allowed[k] = True
                        if self.allowed[k]:
                            if self.label[self.inblossom[w]] == 0:
                                self.assign(w, 2, p ^ 1)
                            elif self.label[self.inblossom[w]] == 1:
                                base = self.scan(v, w)
                                if base >= 0:
                                    self.add_blossom(base, k)
                                else:
                                    self.augment(k)
                                    augmented = True
                                    break
                            elif self.label[w] == 0:
                                self.label[w] = 2
                                self.labelend[w] = p ^ 1
                        elif self.label[self.inblossom[w]] == 1:
                            b = self.inblossom[v]
                            if self.bestedge[b] == -1 or kslack < self.slack(self.bestedge[b]):
                                self.bestedge[b] = k
                        elif self.label[w] == 0:
                            if self.bestedge[w] == -1 or kslack < self.slack(self.bestedge[w]):
                                self.bestedge[w] = k
                if augmented:
                    break
                # No augmenting path with tight edges: adjust the duals.
                deltatype, delta, deltaedge, deltablossom = 1, min(self.dual[:n]), -1, -1
                for v in range(n):
                    if self.label[self.inblossom[v]] == 0 and self.bestedge[v] != -1:
                        d = self.slack(self.bestedge[v])
                        if deltatype == -1 or d < delta:
                            delta, deltatype, deltaedge = d, 2, self.bestedge[v]
                for b in range(2 * n):
                    if self.parent[b] == -1 and self.label[b] == 1 and self.bestedge[b] != -1:
                        kslack = self.slack(self.bestedge[b])
                        d = kslack // 2  # even: both ends are S vertices with integral duals
                        if deltatype == -1 or d < delta:
                            delta, deltatype, deltaedge = d, 3, self.bestedge[b]
                for b in range(n, 2 * n):
                    if (self.base[b] >= 0 and self.parent[b] == -1 and self.label[b] == 2
                            and (deltatype == -1 or self.dual[b] < delta)):
                        delta, deltatype, deltablossom = self.dual[b], 4, b
                for v in range(n):
                    lab = self.label[self.inblossom[v]]
                    if lab == 1:
                        self.dual[v] -= delta
                    elif lab == 2:
                        self.dual[v] += delta
                for b in range(n, 2 * n):
                    if self.base[b] >= 0 and self.parent[b] == -1:
                        if self.label[b] == 1:
                            self.dual[b] += delta
                        elif self.label[b] == 2:
                            self.dual[b] -= delta
                if deltatype == 1:
                    break  # optimum reached
                if deltatype == 2:
                    self.allowed[deltaedge] = True
                    i, j, _ = self.edge[deltaedge]
                    if self.label[self.inblossom[i]] == 0:
                        i, j = j, i
                    self.queue.append(i)
                elif deltatype == 3:
                    self.allowed[deltaedge] = True
                    i, j, _ = self.edge[deltaedge]
                    self.queue.append(i)
                else:
                    self.expand(deltablossom, False)
            if not augmented:
                break
            for b in range(n, 2 * n):
                if self.parent[b] == -1 and self.base[b] >= 0 and self.label[b] == 1 and self.dual[b] == 0:
                    self.expand(b, True)
        return [self.endpoint[p] if p != -1 else -1 for p in self.mate]
