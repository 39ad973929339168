/** A refused webhook request and its HTTP status (400 malformed, 401 bad token, 413 too large). */
export class RequestRejection extends Error {
	constructor(
		readonly httpStatus: number,
		message: string,
	) {
		super(message);
	}
}
