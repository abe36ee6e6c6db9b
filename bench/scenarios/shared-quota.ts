// Issue 21: the same Item → Update of 2,000 items from 1, 2 and 4 independent client processes (each its own
// package instance, as n8n's queue-mode workers are) against ONE token bucket (the credential's), at 10 and
// 50 req/s, with Retry-After and without. Each process only learns its share from the service's answers.
import type { RetryAfterForm } from '../../test/sandbox';
import type { Scenario } from '../scenario';
import { updateWorkload } from './update';

/** The target on refusals for processes sharing one limit. */
const TOO_MANY_SHARE_MAX = 0.1;

function shared(processes: number, rate: number, retryAfter: RetryAfterForm): Scenario {
	const header = retryAfter === 'none' ? 'no Retry-After' : 'Retry-After';
	return {
		id: `quota-${processes}p-${rate}rps-${retryAfter === 'none' ? 'no-retry-after' : 'retry-after'}`,
		title: `Update 2,000 items from ${processes} process${processes > 1 ? 'es' : ''} @ ${rate} req/s, ${header}`,
		rateLimit: { rate, burst: rate, retryAfter },
		processes,
		maxTooManyShare: TOO_MANY_SHARE_MAX,
		prepare: async (admin) => await updateWorkload(admin),
	};
}

export const sharedQuotaScenarios: Scenario[] = [50, 10].flatMap((rate) =>
	(['seconds', 'none'] as RetryAfterForm[]).flatMap((retryAfter) => [1, 2, 4].map((processes) => shared(processes, rate, retryAfter))),
);
