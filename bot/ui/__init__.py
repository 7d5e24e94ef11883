"""Discord plumbing shared by the feature modules: replies in time, posts to a game's
thread, the one error report, buttons that survive restarts, board files, shared options,
and every sentence the bot writes (`text`)."""
