/** The pages the searcher's end-to-end tests crawl-store, index and search. */
import type { FixturePage } from './crawl-fixture.js';

/** Script in title, body and URL: any of it running would set window.__pwned. */
export const EVIL_URL = 'http://evil.test/page?q=<script>window.__pwned=1</script>&x="><img src=x onerror="window.__pwned=1">';

export const PAGES: FixturePage[] = [
  { url: 'http://docs.test/crawler', title: 'The web crawler guide', text: 'The web crawler fetches pages from many hosts. Politeness matters to a crawler.', anchors: ['crawler guide'], boost: 3 },
  { url: 'http://docs.test/fetcher', title: 'Fetcher settings', text: 'The fetcher is the part of the crawler that downloads pages; set fetcher threads here.', anchors: ['fetcher'] },
  { url: 'http://docs.test/parser', title: 'Parser notes', text: 'The parser reads what the crawler fetched and extracts outlinks.' },
  { url: 'http://blog.test/2023/crawling', title: 'Crawling at scale', text: 'A crawler at scale needs many fetchers and a good web graph.', date: '20230115' },
  { url: 'http://blog.test/2024/search', title: 'Search ranking notes', text: 'Ranking search results with BM25F and proximity of query words.', date: '20240610' },
  { url: 'http://de.test/kriecher', title: 'Webcrawler Anleitung', text: 'Ein Webcrawler lädt Seiten; der crawler folgt Links.', lang: 'de' },
  { url: 'http://files.test/manual.pdf', title: 'Crawler manual', text: 'Printable crawler manual with every fetcher option.', type: 'application/pdf', body: '%PDF-1.4 fake pdf bytes' },
  { url: 'http://private.test/secret', title: 'Private crawler notes', text: 'Notes about the crawler that ask not to be archived.', noarchive: true },
  {
    url: EVIL_URL,
    title: 'Evil <script>window.__pwned=1</script> crawler <img src=x onerror="window.__pwned=1">',
    text: 'crawler text <script>window.__pwned=1</script> and <b onmouseover="window.__pwned=1">bold</b> <img src=x onerror="window.__pwned=1">',
    body: '<html><head><title>Evil</title><script>window.__pwned=1</script></head><body onload="window.__pwned=1"><h1>Evil crawler</h1><img src="x" onerror="window.__pwned=1"><script>window.__pwned=1</script><p>crawler text</p></body></html>',
  },
];
