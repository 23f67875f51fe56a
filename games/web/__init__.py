"""The site's pages: views, their forms and page contexts, the dashboard, replays."""
