// The page sent when even the error page cannot be rendered (seed-spec §8):
// plain HTML, no scripts, so nothing else can fail.
import { ERROR_PAGE_FAILED_MESSAGE, GO_HOME_LABEL } from "../components/error-messages";

export function errorPageFailureHtml(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${ERROR_PAGE_FAILED_MESSAGE}</title>
<style>
body{font-family:Verdana,system-ui,sans-serif;font-size:1.125rem;line-height:1.6;color:#1a1a1a;background:#fff;margin:0;padding:3rem 1.5rem}
main{max-width:42rem;margin:0 auto}
h1{color:#0c2340;line-height:1.25}
a{display:inline-block;padding:.5rem 1.5rem;border-radius:6px;background:#14365d;color:#fff;font-weight:700;text-decoration:none}
a:focus-visible{outline:3px solid #1a1a1a;outline-offset:3px;background:#ffbf47;color:#1a1a1a}
</style>
</head>
<body>
<main>
<h1>${ERROR_PAGE_FAILED_MESSAGE}</h1>
<p><a href="/">${GO_HOME_LABEL}</a></p>
</main>
</body>
</html>
`;
}
