/** The page a browser gets from /api/login while the identity provider does not answer: plain words, a way back. */
export function signInUnavailablePage(message: string): string {
  const text = message.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in unavailable · Stemdeck</title></head>
<body>
<main>
<h1>Sign-in is unavailable</h1>
<p>${text}</p>
<p><a href="/">Back to the studio</a></p>
</main>
</body>
</html>
`;
}
