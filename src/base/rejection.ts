/**
 * A webhook request refused, with the HTTP status to answer (400 malformed, 401 wrong token, 413
 * too large): the trigger's callbacks and its pace requests alike.
 */
export class RequestRejection extends Error {
	constructor(
		readonly httpStatus: number,
		message: string,
	) {
		super(message);
	}
}
