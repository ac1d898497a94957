// `/timebox today …` and `/timebox team …`: the commands of the daily budgets, answered from the daily port alone and
// carried out by the one executor, in the host's terms. The session's runtime answers them; so does a team's ledger
// read ahead (a hook process, Claude Code's hooks module), once more before, to learn the writes it sends to the store.

import {
	type DailyPort,
	type DailyStanding,
	limitsUnread,
	parseToday,
	teamCommand,
	todayCommand,
} from "../daily/daily.ts";
import { NO_TEAM, noTeamLimitsHere, teamDayUnknown, teamDayUnknownHere } from "../daily/team-text.ts";
import { DEFAULT_TERMS, type HostTerms, inHostTerms, noDailyBudgetMessage } from "../text/host-terms.ts";
import { type Answer, carryOut, type EffectPorts, noAnswer } from "./executor.ts";

/** What a port out of a daily command's reach does. */
const nothing = () => {};

/** A daily command and its words: `today` and what follows it, or `team` and what follows it. */
export interface DailyCommand {
	kind: "today" | "team";
	words: string;
}

/** Whether a daily port has anything to say or count: a daily budget of the session's own, or a team's store. */
export function hasDailyBudgets(daily: DailyPort | undefined): daily is DailyPort {
	return daily !== undefined && (daily.budgets.length > 0 || daily.ledger.team !== undefined);
}

/** What `/timebox today …` answers, with its writes. */
function today(daily: DailyPort | undefined, words: string, terms: HostTerms) {
	const unreadable = daily?.unreadable ?? [];
	// A budget set that cannot be read is not one left unset: its warning says why none counts.
	const none = unreadable.length > 0 ? unreadable.join("\n") : noDailyBudgetMessage(terms);
	const noneLevel = unreadable.length > 0 ? ("warning" as const) : ("info" as const);
	if (!hasDailyBudgets(daily)) return { message: none, level: noneLevel, effects: [] };
	const standings = daily.ledger.standings(daily.budgets);
	const team = daily.ledger.team;
	const usable = team !== undefined && !("unusable" in team) ? team : null;
	// A team set wrongly whose day refuses new turns (the closed failure mode) is named with the day: nothing else of
	// the team is known, and nothing of it can be changed.
	const refusing = team !== undefined && "unusable" in team ? team.unusable : null;
	const named = refusing !== null && standings.some((standing) => standing.closed === refusing) ? [refusing] : [];
	// A day that could not be read is not a day without limits: the store may keep them (in the closed mode, a
	// standing stands for them, with nothing known of them).
	const unread = usable === null ? null : (daily.ledger.dayUnread?.() ?? null);
	const asked = parseToday(words);
	// Words it cannot read are named as such, whatever the day holds.
	if (asked.kind === "invalid") return todayCommand(standings, words);
	if (refusing !== null && standings.length > 0 && standings.every(limitsUnread)) {
		return { message: refusing, level: "warning" as const, effects: [] };
	}
	if (unread !== null && standings.every(limitsUnread)) {
		return { message: teamDayUnknown(unread, asked.kind !== "show"), level: "warning" as const, effects: [] };
	}
	if (unread !== null && asked.kind === "show") {
		// The standings are this machine's own budgets, which hold the session until the store answers: shown as such.
		const shown = todayCommand(standings.map(machineOwn), words);
		return { message: [teamDayUnknownHere(unread), shown.message].join("\n"), level: "warning" as const, effects: [] };
	}
	if (standings.length === 0) {
		// A session whose only daily budget was to be a team's, set wrongly, is told what is wrong, not to set a budget of
		// its own (the open mode; with one, its day is shown, and /timebox team says what is wrong with the team).
		if (refusing !== null)
			return { message: [refusing, ...unreadable].join("\n"), level: "warning" as const, effects: [] };
		const message = usable === null ? none : `${none} ${noTeamLimitsHere(usable)}`;
		return { message, level: noneLevel, effects: [] };
	}
	const answer = todayCommand(standings, words);
	// Where the day is shown (a change of it says what it changed as it is carried out), a budget set beside the ones
	// that count and that counts for nothing (a member's own cap beside the team's) is named again.
	return answer.message === null
		? answer
		: { ...answer, message: [answer.message, ...named, ...unreadable].join("\n") };
}

/** A standing of a team's budget read on this machine alone, as this machine's own. */
function machineOwn(standing: DailyStanding): DailyStanding {
	const { team: _team, ...own } = standing.budget;
	return { ...standing, budget: own };
}

/** What `/timebox team …` answers, with its writes. */
function team(daily: DailyPort | undefined, words: string) {
	if (daily === undefined) return { message: NO_TEAM, level: "info" as const, effects: [] };
	const { ledger, budgets } = daily;
	return teamCommand(ledger.team, words, {
		view: () => ledger.teamView?.() ?? { unreadable: NO_TEAM },
		standings: () => ledger.standings(budgets),
		dayUnread: () => ledger.dayUnread?.() ?? null,
	});
}

/**
 * A team set wrongly is said once a session: as a warning before the first of its events that says anything, or by a
 * daily command whose answer is that warning (`/timebox team`, `/timebox today`), which takes it from the ledger so
 * that the next event does not say it again (`opencode run --command timebox team` printed it twice). Whatever else
 * the ledger had to say then comes first, as it would at any event; null when nothing.
 */
function toldBefore(daily: DailyPort | undefined, message: string): string | null {
	const team = daily?.ledger.team;
	if (daily === undefined || team === undefined || !("unusable" in team) || !message.includes(team.unusable))
		return null;
	const problem = daily.ledger.problem();
	return problem === team.unusable ? null : problem;
}

/** Answers a daily command through `ports` (its daily port among them), in the host's `terms`. */
export function dailyCommandAnswer(
	command: DailyCommand,
	ports: EffectPorts,
	terms: HostTerms = DEFAULT_TERMS,
): Answer {
	const answer = noAnswer();
	try {
		const reply =
			command.kind === "today" ? today(ports.daily, command.words, terms) : team(ports.daily, command.words);
		// A daily command starts no on-stop command: nothing reports one.
		carryOut(reply.effects, ports, answer, nothing);
		const told = reply.message === null ? null : toldBefore(ports.daily, reply.message);
		if (told !== null) answer.notices.push({ message: told, level: "warning" });
		if (reply.message !== null) answer.notices.push({ message: reply.message, level: reply.level });
	} catch (error) {
		ports.problem(`/timebox ${command.kind}`, error);
	}
	for (const notice of answer.notices) notice.message = inHostTerms(notice.message, terms);
	return answer;
}

/**
 * The ports of a daily command answered alone (a team's ledger read ahead learning the writes it makes): its daily
 * port, and nothing else a daily command could reach.
 */
export function dailyCommandPorts(daily: DailyPort, problem: EffectPorts["problem"]): EffectPorts {
	return {
		daily,
		store: { append: nothing },
		ledger: { claim: () => true },
		setStatus: nothing,
		onStop: { start: nothing },
		abortRun: nothing,
		problem,
	};
}
