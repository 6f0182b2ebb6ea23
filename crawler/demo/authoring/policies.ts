/**
 * @module crawler/demo/authoring/policies
 * Handbook policies. The travel policy of 2023 lives on as a near-duplicate
 * in the wiki archive (wiki.ts), with a few figures changed.
 */
import type { DemoPage } from './shell.js';

const p = (slug: string, title: string, reviewed: string, body: string): DemoPage => ({
  path: `/policies/${slug}.html`, section: 'policies', title, reviewed, body,
});

export const policyPages: DemoPage[] = [
  p('code-of-conduct', 'Code of conduct', '2024-06-11', `We want Kestrel Labs to be a place where everyone can do their best work. That takes respect, in meetings, in code review, in chat and at the pub after the all-hands.

## What we expect

- Be kind and assume good intent; ask before you conclude.
- Disagree with ideas, never with people. Critique the change, not the author.
- Make room for quieter voices and for people working in their second or third language.
- Respect boundaries, including time zones and time off.

## What is never acceptable

Harassment, discrimination, intimidation, unwelcome sexual attention and jokes at someone's expense based on who they are. The [anti-harassment policy](/policies/anti-harassment.html) explains how to report it and what happens next. The code applies to everyone, including founders, contractors, and guests at our events.`),
  p('anti-harassment', 'Anti-harassment policy', '2024-06-11', `Harassment is unwanted behaviour that violates someone's dignity or creates an intimidating, hostile or offensive environment. It does not matter whether it was meant as a joke.

## Reporting

You can report to your manager, to any member of People Operations, or anonymously through the [whistleblowing line](/policies/whistleblowing.html). If the person you want to report is your manager, go to their manager or straight to People Operations.

We will acknowledge a report within two working days, investigate it promptly and confidentially, and tell you the outcome as far as the law allows. Nobody who reports in good faith, or helps an investigation, will suffer for it. Retaliation is itself treated as serious misconduct.`),
  p('whistleblowing', 'Whistleblowing', '2023-12-01', `If you believe something at Kestrel Labs is illegal, dangerous or seriously wrong, such as fraud, a cover-up of a data breach or a risk to someone's safety, you can raise it confidentially.

The whistleblowing line is run by an independent company and takes reports by web form or phone in several languages, anonymously if you wish. Reports go to the chair of our board's audit committee, not to management.

You are protected by law and by this policy when you report in good faith, even if the concern turns out to be unfounded.`),
  p('remote-work', 'Remote work', '2025-01-06', `Most roles at Kestrel Labs can be done from anywhere in a country where we employ people. About half of us work mostly from home; the rest use the offices most days.

## What we ask of remote colleagues

- Work from a place with a reliable connection and where you can talk privately.
- Overlap at least four hours a day with your team's core hours.
- Come to the team's off-site twice a year; we pay the travel.
- Keep your calendar and chat status honest, so people know when to expect an answer.

Working from another country for more than four weeks a year needs approval, because of tax and employment law. Ask People Operations at least a month before. See also [home office allowance](/money/home-office.html) and [working hours](/policies/working-hours.html).`),
  p('working-hours', 'Working hours and flexibility', '2024-10-08', `A full-time week is 37.5 hours. When you work them is mostly up to you and your team, as long as you are around for the team's core hours, usually 10:00 to 16:00 local time.

Please do not send messages that expect an answer outside the recipient's working hours. Schedule them, or say "no need to reply until tomorrow". People in Seoul and Toronto are 14 hours apart, so this matters.

If you regularly work more than your contracted hours, talk to your manager: it is a planning problem, not a badge of honour. Time spent on incidents outside working hours is handled by [on-call pay](/money/on-call-pay.html) and time off in lieu.`),
  p('information-security', 'Information security basics', '2025-02-12', `Our customers trust us with their events, which often contain personal data. Everyone at Kestrel Labs is responsible for keeping that data safe, not only the Security team.

## The rules everyone follows

- Use the password manager and two-factor authentication for every work account.
- Lock your screen when you step away, even at home.
- Never copy customer data to your laptop, personal cloud storage or chat.
- Install updates within a week; device management will remind you, and later insist.
- Report phishing with the button in your mail client, and anything suspicious in #security.

## Classifying information

| Class | Examples | Where it may live |
| Public | Blog posts, public docs | Anywhere |
| Internal | This handbook, the wiki | Company systems only |
| Confidential | Contracts, salaries, incident details | Restricted folders |
| Customer data | Event payloads, endpoint secrets | Production systems only |

Engineers should also read the [secrets management guide](wiki:/howto/secrets-management.html) and the [data protection policy](/policies/data-protection.html).`),
  p('data-protection', 'Data protection and privacy', '2024-11-25', `We process personal data about customers, their end users and our own staff. The law in every country we work in says we must handle it lawfully, keep it to what we need and protect it. Our own standard is higher: treat every record as if it were about you.

In practice, that means collecting only what a feature needs, keeping it no longer than our retention schedule says (event payloads are deleted after 30 days unless a customer chooses otherwise), and accessing production data only to do your job, through audited tools.

If you think personal data has been exposed, tell #security immediately. We have 72 hours to notify regulators in many jurisdictions, and the clock starts when anyone at Kestrel knows. The Data Protection Officer can be reached at privacy@kestrel.test.`),
  p('acceptable-use', 'Acceptable use of company systems', '2023-09-14', `Company laptops, accounts and networks are for work, with reasonable personal use allowed: reading the news at lunch, booking a doctor's appointment, a video call with family while travelling.

Do not install software from untrusted sources, disable security tools, share your accounts, or use company systems for anything illegal or for running a side business. Cryptocurrency mining on company hardware, including cloud accounts, is explicitly forbidden; yes, someone asked.

We monitor systems for security purposes, not to read your private messages. Monitoring is described in detail in the privacy notice for staff.`),
  p('performance-reviews', 'Performance reviews', '2024-08-05', `Reviews happen twice a year, in March and September. They look back at the last six months and forward at the next, and they are meant to hold no surprises: feedback should already have happened in your one-to-ones.

## How it works

1. You write a short self-review: what you did, what you learned, what you would do differently.
2. Two or three peers you choose write a few paragraphs each.
3. Your manager writes the review and discusses it with you in a one-hour conversation.
4. Calibration across teams happens before the conversation, so that standards are consistent.

Reviews feed into [promotions](/policies/promotions.html) and pay, but the conversation is mostly about growth. If you disagree with your review, you can add a written response, which stays attached to it.`),
  p('promotions', 'Promotions and career levels', '2024-08-05', `Our career framework has levels from one to seven for individual contributors and a parallel track for managers. Each level is described by the scope of work and impact expected, not by years of service.

Promotions are decided twice a year, after [performance reviews](/policies/performance-reviews.html). Your manager puts you forward with examples of work at the next level; a panel from outside your team reads the case. You can also ask to be considered yourself.

Moving from engineering into management, or back, is a sideways move, not a promotion. Both tracks reach the same pay bands.`),
  p('giving-feedback', 'Giving and receiving feedback', '2023-10-30', `Feedback is how we get better at our jobs without waiting for a review. Give it often, in small amounts, and close to the event.

A useful form is: what happened, what effect it had, and what you would suggest. "In Tuesday's planning you summarised the options before we voted; it helped us decide in ten minutes. Could you do that in the incident review too?" Positive feedback deserves the same specificity as criticism.

When receiving feedback, say thank you, ask questions to understand it, and decide later what to do with it. You do not have to agree on the spot.`),
  p('hiring-and-interviewing', 'Hiring and interviewing', '2024-12-16', `Everyone takes part in hiring sooner or later. We want every candidate, whether we hire them or not, to leave thinking the process was fair and well organised.

## Our interview loop

1. A 30-minute conversation with a recruiter.
2. A work sample: for engineers, a paid take-home exercise of at most three hours, or a pairing session if they prefer.
3. Two structured interviews with the team, each with written criteria.
4. A values conversation with someone from another department.

Interviewers submit written feedback before they talk to each other, to avoid anchoring. Ask about experience and reasoning; never ask about age, family plans, religion or health. Interview training is required before you join a panel; book it in the learning system.`),
  p('referrals', 'Referring candidates', '2024-02-19', `Know someone who would be great at Kestrel Labs? Refer them through the hiring system and tell them to expect a message from a recruiter.

If we hire them and they stay six months, you receive a referral bonus of 2,000 in local currency, paid with payroll. Referrals go through the same process as everyone else; the bonus is a thank you, not a shortcut.`),
  p('conflicts-of-interest', 'Conflicts of interest and gifts', '2023-09-14', `A conflict of interest arises when your personal interests could influence, or appear to influence, a decision you make for Kestrel Labs. Examples: hiring a relative, choosing a vendor owned by a friend, or holding shares in a competitor.

Conflicts are normal; hiding them is the problem. Declare them to your manager and People Operations, who will record them and, if needed, arrange for someone else to take the decision.

You may accept small gifts and hospitality from suppliers or customers worth up to 50, such as a conference dinner. Anything more valuable must be declared and usually politely declined. Never offer or accept anything intended to win business.`),
  p('open-source', 'Contributing to open source', '2024-03-21', `We build Relay on open-source software and want to give back. You may contribute to open-source projects during work time when it helps your work, such as fixing a bug in a library we use, without asking.

Contributing company code as a new open-source project needs approval from the engineering director and a quick review by Security, mainly to make sure no secrets or customer details slip through. Personal projects on your own time and equipment are yours, as long as they do not compete with Relay.

Our public projects and the licence we use are listed on the [engineering wiki](wiki:/howto/open-source-projects.html).`),
  p('leaving', 'Leaving Kestrel Labs', '2024-01-15', `People leave for all sorts of good reasons, and we want them to leave well. Tell your manager first, then People Operations, who will confirm your notice period and last day.

In your last weeks, hand over your work: write notes on the wiki for anything you own, transfer on-call shifts and services, and return your equipment. On your last day your accounts are closed at the end of the working day.

You will be offered an exit conversation with someone from People Operations. It is optional and confidential, and it is one of the most useful sources of honest feedback the company gets.`),
];
