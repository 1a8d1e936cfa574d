// A third party's TypeScript client (issue 37, item 4): types by openapi-typescript from openapi.yaml
// with its default settings (schema.d.ts, generated beside this file by the test), requests by
// openapi-fetch. Two players sign up, one invites the other, and they play the game to its end.
// Usage (compiled): node play.js BASE_URL battleline|khan SEED  -> prints the final view as JSON.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Step = components["schemas"]["Step"];
type View = components["schemas"]["GameView"];
type NewGame = components["schemas"]["CreateGameRequest"]; // a Battle Line body or a Khan & General body
declare const process: { argv: string[]; exitCode?: number };

const AVOIDED = new Set(["resign", "offer_draw", "accept_draw"]); // the games end by being played
const MAX_STEPS = 3000;

function random(seed: number): () => number { // a small seeded generator (mulberry32)
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A claim of the most flags first (so Battle Line ends), else any legal step but a resignation or a draw offer. */
function choose(steps: Step[], next: () => number): Step {
  const claims = steps.filter((step) => step.type === "claim");
  if (claims.length) {
    const flags = (step: Step) => ("flags" in step ? step.flags.length : 0);
    return claims.reduce((best, step) => (flags(step) > flags(best) ? step : best));
  }
  const playable = steps.filter((step) => !AVOIDED.has(step.type));
  const from = playable.length ? playable : steps;
  return from[Math.floor(next() * from.length)];
}

async function signUp(baseUrl: string, name: string) {
  const { data, error } = await createClient<paths>({ baseUrl }).POST("/v1/players", { body: { name } });
  if (!data?.api_key) throw new Error(`sign-up refused: ${JSON.stringify(error)}`);
  return { id: data.id, api: createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${data.api_key}` } }) };
}

async function main(): Promise<void> {
  const [baseUrl, game, seed] = process.argv.slice(2);
  const ann = await signUp(baseUrl, "Ann");
  const bob = await signUp(baseUrl, "Bob");
  const chairs = [{ player_id: ann.id }, { player_id: bob.id }];
  // `game` chooses the body, and so which options type-check (Khan's options in a Battle Line body do not).
  const body: NewGame = game === "khan"
    ? { game: "khan", options: { max_rounds: 2, first_seat: 1 }, seats: chairs }
    : { game: "battleline", options: { tactics: true, first_seat: 1 }, seats: chairs };
  const created = await ann.api.POST("/v1/games", { body });
  if (!created.data) throw new Error(`createGame refused: ${JSON.stringify(created.error)}`);
  const gameId = created.data.game_id;
  const accepted = await bob.api.POST("/v1/games/{game_id}/accept", { params: { path: { game_id: gameId } } });
  if (accepted.data?.status !== "active") throw new Error(`acceptGame: ${JSON.stringify(accepted.error)}`);

  // The turn loop: whoever is to move posts one of its legal steps, reading its own view when the
  // turn has passed to it (a move's answer is the mover's view).
  const seats = [ann, bob];
  const next = random(Number(seed));
  let view: View = accepted.data;
  for (let i = 0; i < MAX_STEPS && view.status === "active"; i++) {
    const player = seats[(view.to_move ?? 1) - 1].api;
    if (i === 0 || view.you !== view.to_move) {
      const read = await player.GET("/v1/games/{game_id}", { params: { path: { game_id: gameId } } });
      if (!read.data) throw new Error(`getGame refused: ${JSON.stringify(read.error)}`);
      view = read.data;
    }
    const step = choose(view.legal_steps, next);
    const posted = await player.POST("/v1/games/{game_id}/actions", {
      params: { path: { game_id: gameId } },
      body: { expected_version: view.version, steps: [step] },
    });
    if (!posted.data) throw new Error(`postAction refused ${JSON.stringify(step)}: ${JSON.stringify(posted.error)}`);
    view = posted.data.view;
  }
  console.log(JSON.stringify(view));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
