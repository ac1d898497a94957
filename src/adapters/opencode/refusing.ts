// A hook that refuses by throwing: while it runs, an abort the rules ask for would only race the throw, so the session
// is marked and its abort left to the throw.

export async function refusing<T>(session: { refusing: boolean }, action: () => Promise<T>): Promise<T> {
	session.refusing = true;
	try {
		return await action();
	} finally {
		session.refusing = false;
	}
}
