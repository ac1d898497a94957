// Paced streaming for the fake model APIs: a demo's reply appears a few words at a time, as a real model's does; a
// test's reply (no delay) comes as one chunk.

const WORDS_PER_CHUNK = 2;

/** The text as one chunk when there is no delay, else in chunks of a few words (the spaces kept). */
export function wordChunks(text: string, delayMs: number): string[] {
	if (delayMs <= 0) return [text];
	const words = text.match(/\S+\s*/g) ?? [text];
	const chunks: string[] = [];
	for (let index = 0; index < words.length; index += WORDS_PER_CHUNK) {
		chunks.push(words.slice(index, index + WORDS_PER_CHUNK).join(""));
	}
	return chunks;
}

/** Sends each chunk (`first` for the first one), waiting `delayMs` before every chunk after the first. */
export async function paced(
	chunks: readonly string[],
	delayMs: number,
	send: (chunk: string, first: boolean) => void,
): Promise<void> {
	for (const [index, chunk] of chunks.entries()) {
		if (index > 0 && delayMs > 0) await new Promise((done) => setTimeout(done, delayMs));
		send(chunk, index === 0);
	}
}
