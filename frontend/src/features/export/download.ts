/**
 * Starts a download the way a click on a link does: the browser sends the session cookie (same origin) and
 * saves the answer under `filename` (the server's Content-Disposition names it too). Nothing is fetched into
 * memory here, so a large zip streams straight to disk.
 */
export function startDownload(url: string, filename: string, doc: Document = document): void {
  const link = doc.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  doc.body.appendChild(link);
  link.click();
  link.remove();
}
