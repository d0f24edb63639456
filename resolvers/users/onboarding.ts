// Onboarding steps (Zulip's zerver/lib/onboarding_steps.py): the one-time notices and actions a
// client shows a user until the user dismisses them. Register's `onboarding_steps` lists those not
// yet seen; POST /users/me/onboarding_steps marks one seen and sends the user the new list.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import { inTransaction } from '../transaction.ts';

export interface OnboardingStepWire {
  type: 'one_time_notice' | 'one_time_action';
  name: string;
}

export interface OnboardingStepsEvent {
  type: 'onboarding_steps';
  onboarding_steps: OnboardingStepWire[];
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    onboarding_steps: OnboardingStepsEvent;
  }
}

/** Zulip's ALL_ONBOARDING_STEPS, in its order. */
const ONBOARDING_STEPS: readonly OnboardingStepWire[] = [
  ...['visibility_policy_banner', 'intro_inbox_view_modal', 'intro_recent_view_modal', 'first_stream_created_banner',
    'jump_to_conversation_banner', 'non_interleaved_view_messages_fading', 'interleaved_view_messages_fading',
    'intro_resolve_topic', 'navigation_tour_video'].map((name) => ({ type: 'one_time_notice' as const, name })),
  { type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' },
];

/** Parley offers no navigation tour video (register's navigation_tour_video_url is null): its notice counts as seen. */
const ALWAYS_SEEN = ['navigation_tour_video'];

initialStatePart(['onboarding_steps'], async (s) => ({
  onboarding_steps: s.user ? await nextOnboardingSteps(s.ctx, s.user) : [],
  navigation_tour_video_url: null,
}));

export async function nextOnboardingSteps(ctx: Pick<Context, 'db'>, user: Pick<User, 'id'>): Promise<OnboardingStepWire[]> {
  const rows = await ctx.db.onboardingStep.findMany({ where: { userId: user.id }, select: { step: true } });
  const seen = new Set([...rows.map((r) => r.step), ...ALWAYS_SEEN]);
  return ONBOARDING_STEPS.filter((step) => !seen.has(step.name));
}

export async function markOnboardingStepRead(ctx: Context, user: User, step: string): Promise<void> {
  if (user.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
  if (!ONBOARDING_STEPS.some((s) => s.name === step)) throw new BadRequestError(`Unknown onboarding_step: ${step}`);
  await inTransaction(ctx, async (tx) => {
    await tx.tx.$executeRaw`
      INSERT INTO "OnboardingStep" ("userId", "step") VALUES (${user.id}, ${step}) ON CONFLICT ("userId", "step") DO NOTHING`;
    tx.events.publish(ctx.realm.id, [user.id], { type: 'onboarding_steps', onboarding_steps: await nextOnboardingSteps(tx, user) });
  });
}
