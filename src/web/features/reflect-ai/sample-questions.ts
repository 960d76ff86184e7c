/** Questions the welcome screen types out and offers (each one something the tools answer from the trader's trades). */
export const SAMPLE_QUESTIONS = [
  'How did I do on NQ mornings last month?',
  'Which weekday costs me the most money?',
  'What is my win rate this week?',
  'Compare my AM and PM sessions over the last 30 days',
  'What were my best and worst trades this month?',
  'How long was my longest losing streak?',
] as const;
