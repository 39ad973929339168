/** The keys runs of this n8n process claimed in a node's history (Resend Unconfirmed's guard). */

interface Row {
	tick: number;
	/** Live runs, and the tick each began at. */
	runs: Map<ProcessClaims, number>;
	/** Each key claimed, by which run, and the tick that run ended at (none while it lives). */
	claims: Map<string, { run: ProcessClaims; endedAt?: number }>;
}

const rows = new Map<string, Row>();

/**
 * One run's part in its process's claims on a row. n8n's store cannot tell a message another
 * execution has in flight (or sent, its confirmation not yet written) from one a stopped run left
 * unconfirmed: the process can, for its own executions.
 */
export class ProcessClaims {
	constructor(private readonly row: string) {}

	private get state(): Row {
		if (!rows.has(this.row)) rows.set(this.row, { tick: 0, runs: new Map(), claims: new Map() });
		return rows.get(this.row)!;
	}

	/** The run begins (its lookup): what other runs claim from now on concerns it. */
	begin(): void {
		this.state.runs.set(this, ++this.state.tick);
	}

	/** Whether another run claimed the key and lived at some time since this one began. */
	elsewhere(key: string): boolean {
		const state = rows.get(this.row);
		const claim = state?.claims.get(key);
		if (!state || !claim || claim.run === this) return false;
		return claim.endedAt === undefined || claim.endedAt > (state.runs.get(this) ?? Infinity);
	}

	take(key: string): void {
		this.state.claims.set(key, { run: this });
	}

	/** The run ends: its claims are kept while a run that began before its end lives. */
	end(): void {
		const state = this.state;
		state.runs.delete(this);
		const endedAt = ++state.tick;
		const oldest = Math.min(...state.runs.values());
		for (const [key, claim] of state.claims) {
			if (claim.run === this) claim.endedAt = endedAt;
			if (claim.endedAt !== undefined && claim.endedAt < oldest) state.claims.delete(key);
		}
		if (state.runs.size === 0) rows.delete(this.row);
	}
}
