"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): one rating period's update.

Ratings are on the Glicko scale (1500 / 350 / 0.06 for a new player); the system constant
TAU limits how fast volatility changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.5
EPSILON = 0.000001
PROVISIONAL_RD = 110.0
MAX_RD = 350.0  # a new player's RD: no rating is ever less certain
RATING_PERIOD_DAYS = 30  # an idle rating's RD grows by one empty period for each such span without a rated game


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06

    @property
    def provisional(self) -> bool:
        return self.rd >= PROVISIONAL_RD


def idle(player: Rating, periods: int) -> Rating:
    """The rating after ``periods`` rating periods without a game: Glickman's step 6 taken that many
    times, φ² growing by σ² each (rating and volatility unchanged), in closed form, so that any idle
    time costs the same; never above ``MAX_RD``."""
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    return Rating(player.rating, min(math.sqrt(phi ** 2 + periods * player.volatility ** 2) * SCALE, MAX_RD),
                  player.volatility)


def periods_until_provisional(player: Rating) -> int | None:
    """How many empty rating periods make the rating provisional (RD ≥ ``PROVISIONAL_RD``) again: 0
    if it is already; None if it never will (no volatility)."""
    if player.provisional:
        return 0
    if player.volatility <= 0:
        return None
    target, phi = PROVISIONAL_RD / SCALE, player.rd / SCALE
    n = max(1, math.ceil((target ** 2 - phi ** 2) / player.volatility ** 2))
    while n > 1 and idle(player, n - 1).provisional:  # floating point: the first period that reaches it
        n -= 1
    while not idle(player, n).provisional:
        n += 1
    return n


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after a period's games: (opponent before the period, score 1 / ½ / 0)."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.volatility
    if not games:
        return idle(player, 1)
    opponents = [((o.rating - 1500) / SCALE, o.rd / SCALE, score) for o, score in games]
    v = 1 / sum(_g(p) ** 2 * _e(mu, m, p) * (1 - _e(mu, m, p)) for m, p, _ in opponents)
    delta = v * sum(_g(p) * (s - _e(mu, m, p)) for m, p, s in opponents)

    a = math.log(sigma ** 2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:  # the Illinois algorithm
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + sigma_new ** 2)
    phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu_new = mu + phi_new ** 2 * sum(_g(p) * (s - _e(mu, m, p)) for m, p, s in opponents)
    return Rating(1500 + SCALE * mu_new, SCALE * phi_new, sigma_new)
