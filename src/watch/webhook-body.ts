/**
 * The body of a webhook POST, in its two forms:
 *
 * - `json` ({@link WebhookJsonBody}): every fact of the alert, for machines. Its fields are always present, in this
 *   order, `null` where a fact does not apply (the oracle's silence has no agent, no before and no after):
 *   `version` (1), `kind`, `state`, `id`, `agent`, `summary`, `before`, `after`,
 *   `decision` `{onchain, attested, flipped}`, `evidence` `{blockNumber, transactionHash, kid, issuedAt, expiresAt,
 *   recordUpdatedAt, details}`, `since`, `at`, `report`. A receiver deduplicates deliveries by `id`, `state` and `at`
 *   (a retried delivery carries the same body).
 * - `slack` ({@link SlackWebhookBody}): a Slack incoming-webhook message, `{text, blocks}` (Block Kit): a header naming
 *   the state, kind and agent, the summary, the facts as fields, the evidence's details, and the id, time and report
 *   link in a context line. Outside text is shown as text: control characters removed, `&`, `<` and `>` written as
 *   entities, so that nothing in a summary can become a link or a mention.
 *
 * @packageDocumentation
 */
import type { AttestedSide, OnchainSide } from "../drift/types.js";
import { sanitizeText } from "../security/outside-text.js";
import type { AlertEvidence, AlertKind, AlertMessage, AlertState } from "./types.js";

/** The two forms of a webhook body: `json` for machines, `slack` for a Slack-compatible incoming webhook. */
export type WebhookFormat = "json" | "slack";

/** The forms {@link webhookBody} writes. */
export const WEBHOOK_FORMATS: readonly WebhookFormat[] = ["json", "slack"];

/** The version of {@link WebhookJsonBody}: raised when a field changes meaning or goes; new fields do not raise it. */
export const WEBHOOK_BODY_VERSION = 1;

/** The `json` body of a webhook POST (see the module notes). */
export interface WebhookJsonBody {
  readonly version: typeof WEBHOOK_BODY_VERSION;
  readonly kind: AlertKind;
  readonly state: AlertState;
  /** The condition's identity: the same persisting problem has the same id. */
  readonly id: string;
  readonly agent: string | null;
  readonly summary: string;
  /** The on-chain record. */
  readonly before: OnchainSide | null;
  /** The signed attestation. */
  readonly after: AttestedSide | null;
  /** The gate's decision on each side (`null` when unknown), and whether both are known and differ. */
  readonly decision: { readonly onchain: boolean | null; readonly attested: boolean | null; readonly flipped: boolean };
  readonly evidence: AlertEvidence;
  /** When the condition was first raised (ISO-8601). */
  readonly since: string;
  /** When this message was made (ISO-8601). */
  readonly at: string;
  /** A link or path to the night's drift report, or `null`. */
  readonly report: string | null;
}

/** A Slack Block Kit block, as {@link webhookBody} writes them. */
export type SlackBlock =
  | { readonly type: "header"; readonly text: { readonly type: "plain_text"; readonly text: string } }
  | {
      readonly type: "section";
      readonly text?: { readonly type: "mrkdwn"; readonly text: string };
      readonly fields?: readonly { readonly type: "mrkdwn"; readonly text: string }[];
    }
  | { readonly type: "context"; readonly elements: readonly { readonly type: "mrkdwn"; readonly text: string }[] };

/** The `slack` body of a webhook POST: the notification's text and its blocks. */
export interface SlackWebhookBody {
  readonly text: string;
  readonly blocks: readonly SlackBlock[];
}

/** Slack's limits: a header's text, a section's text, a field's text, the fields of a section. */
const SLACK_HEADER_MAX = 150;
const SLACK_TEXT_MAX = 3000;
const SLACK_FIELD_MAX = 2000;
const SLACK_FIELDS_MAX = 10;
/** Most details lines shown in a Slack message (the `json` form carries them all). */
const SLACK_DETAILS_MAX = 20;

/**
 * The `json` form of a message, as an object (see the module notes).
 *
 * @param message - The alert message.
 * @returns The body's fields, in their documented order.
 */
export function webhookJsonBody(message: AlertMessage): WebhookJsonBody {
  const onchain = message.decision?.onchain ?? null;
  const attested = message.decision?.attested ?? null;
  const evidence = message.evidence;
  return {
    version: WEBHOOK_BODY_VERSION,
    kind: message.kind,
    state: message.state,
    id: message.id,
    agent: message.agent ?? null,
    summary: message.summary,
    before: message.before ?? null,
    after: message.after ?? null,
    decision: { onchain, attested, flipped: onchain !== null && attested !== null && onchain !== attested },
    evidence: {
      blockNumber: evidence?.blockNumber ?? null,
      transactionHash: evidence?.transactionHash ?? null,
      kid: evidence?.kid ?? null,
      issuedAt: evidence?.issuedAt ?? null,
      expiresAt: evidence?.expiresAt ?? null,
      recordUpdatedAt: evidence?.recordUpdatedAt ?? null,
      details: [...(evidence?.details ?? [])],
    },
    since: message.since,
    at: message.at,
    report: message.report ?? null,
  };
}

/**
 * The body of a webhook POST for a message, in the given form (see the module notes).
 *
 * @param message - The alert message.
 * @param format - `json` or `slack`.
 * @returns The body's text (JSON), exactly the bytes that are signed and sent.
 */
export function webhookBody(message: AlertMessage, format: WebhookFormat): string {
  return JSON.stringify(format === "slack" ? slackBody(webhookJsonBody(message)) : webhookJsonBody(message));
}

/** Outside text as Slack `mrkdwn` shows it literally enough: one line, no controls, no link or mention syntax. */
function slackText(text: string): string {
  return sanitizeText(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function yesNo(value: boolean | null): string {
  return value === null ? "unknown" : value ? "passes" : "fails";
}

function onchainSide(side: OnchainSide): string {
  return `score ${side.score}, ${slackText(side.tier)}, sybil ${slackText(side.sybilSeverity)}, updated ${slackText(side.updatedAt)}`;
}

function attestedSide(side: AttestedSide): string {
  const kid = side.kid === null ? "unsigned listing" : `kid ${slackText(side.kid)}`;
  return `score ${side.score}, ${slackText(side.tier)}, sybil ${slackText(side.sybilSeverity)}, attested ${slackText(side.attestedAt)} (${kid})`;
}

function reportLink(report: string): string {
  if (/^https?:\/\/[^\s<>|]+$/.test(report)) return `<${report.replace(/&/g, "&amp;")}|drift report>`;
  return `drift report: ${slackText(report)}`;
}

function slackBody(body: WebhookJsonBody): SlackWebhookBody {
  const state = body.state.toUpperCase();
  const subject = body.agent === null ? body.kind : `${body.kind} · ${body.agent}`;
  const fields: string[] = [`*State*\n${state} since ${slackText(body.since)}`];
  if (body.agent !== null) fields.push(`*Agent*\n${slackText(body.agent)}`);
  if (body.decision.onchain !== null || body.decision.attested !== null) {
    const flip = body.decision.flipped ? " (decision flips)" : "";
    fields.push(`*Decision*\non-chain ${yesNo(body.decision.onchain)}, attested ${yesNo(body.decision.attested)}${flip}`);
  }
  if (body.before !== null) fields.push(`*Before (on-chain)*\n${onchainSide(body.before)}`);
  if (body.after !== null) fields.push(`*After (attested)*\n${attestedSide(body.after)}`);
  const { evidence } = body;
  if (evidence.blockNumber !== null) fields.push(`*Block*\n${slackText(evidence.blockNumber)}`);
  if (evidence.transactionHash !== null) fields.push(`*Transaction*\n${slackText(evidence.transactionHash)}`);
  if (evidence.kid !== null || evidence.issuedAt !== null || evidence.expiresAt !== null) {
    const times = [
      evidence.issuedAt && `issued ${slackText(evidence.issuedAt)}`,
      evidence.expiresAt && `expires ${slackText(evidence.expiresAt)}`,
    ];
    fields.push(`*Attestation*\n${[evidence.kid === null ? null : `kid ${slackText(evidence.kid)}`, ...times].filter(Boolean).join(", ")}`);
  }
  if (evidence.recordUpdatedAt !== null) fields.push(`*Record time*\n${slackText(evidence.recordUpdatedAt)}`);

  const blocks: SlackBlock[] = [
    { type: "header", text: { type: "plain_text", text: clip(sanitizeText(`${state}: ${subject}`), SLACK_HEADER_MAX) } },
    { type: "section", text: { type: "mrkdwn", text: clip(slackText(body.summary), SLACK_TEXT_MAX) } },
    {
      type: "section",
      fields: fields.slice(0, SLACK_FIELDS_MAX).map((text) => ({ type: "mrkdwn" as const, text: clip(text, SLACK_FIELD_MAX) })),
    },
  ];
  if (evidence.details.length > 0) {
    const shown = evidence.details.slice(0, SLACK_DETAILS_MAX).map((line) => `• ${slackText(line)}`);
    if (evidence.details.length > SLACK_DETAILS_MAX) shown.push(`• … ${evidence.details.length - SLACK_DETAILS_MAX} more`);
    blocks.push({ type: "section", text: { type: "mrkdwn", text: clip(shown.join("\n"), SLACK_TEXT_MAX) } });
  }
  const context = [`id ${slackText(body.id)}`, `at ${slackText(body.at)}`];
  if (body.report !== null) context.push(reportLink(body.report));
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: clip(context.join(" · "), SLACK_TEXT_MAX) }] });

  return { text: clip(slackText(`[${state}] ${subject}: ${body.summary}`), SLACK_TEXT_MAX), blocks };
}
