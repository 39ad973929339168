/**
 * **Not the platform**: sample files the sandbox serves at `GET /__sandbox/files/<name>`, so a demo
 * workflow can download a file as a user's workflow downloads theirs (Recipe 1: a CSV export of
 * customers, fetched with n8n's HTTP Request node).
 */
export const SAMPLE_FILES: Record<string, { contentType: string; body: string }> = {
	'customers.csv': {
		contentType: 'text/csv; charset=utf-8',
		body:
			'mobile,first_name,email\n' +
			'+33612345611,Ada,ada@example.com\n' +
			'+33612345612,Alan,alan@example.com\n' +
			'+33612345613,Grace,grace@example.com\n',
	},
};
