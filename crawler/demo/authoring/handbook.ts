/**
 * @module crawler/demo/authoring/handbook
 * The people handbook: onboarding, policies, leave, money, benefits and the
 * offices (the Seoul page is in Korean, the Berlin page in German). The
 * expenses page is also served at its old address, byte for byte.
 */
import type { DemoPage, HostContent } from './shell.js';
import { officePages } from './offices.js';
import { policyPages } from './policies.js';

const welcome: DemoPage[] = [
  {
    path: '/welcome/first-day.html', section: 'welcome', title: 'Your first day', reviewed: '2025-01-14',
    body: `Welcome to Kestrel Labs. Your first day is mostly about getting set up and meeting people; nobody expects you to ship anything yet.

## Morning

- Collect your laptop from the IT desk (or open the parcel if you are remote) and follow the [laptop setup guide](/welcome/accounts-and-laptop.html).
- Sign in to your Kestrel account, set up two-factor authentication and join the #new-starters chat channel.
- Meet your onboarding buddy, who will walk you through the intranet: this handbook, the [engineering wiki](wiki:/), the [Relay documentation](docs:/) and [Kestrel News](news:/).

## Afternoon

Your manager will book a one-hour conversation about what the first month looks like. Bring questions: about the team, the product, how decisions get made. In the late afternoon there is a short security briefing, which is mandatory and covers phishing, password managers and how to report a lost device.

If anything is missing or broken, ask in #it-help. It is not a bother; it is how we find the gaps in this page.`,
  },
  {
    path: '/welcome/first-week.html', section: 'welcome', title: 'Your first week', reviewed: '2025-01-14',
    body: `The first week is for context. You will read more than you write, and that is intended.

Every new starter attends the product tour on Tuesday, where someone from the Delivery team shows how an event travels through [Relay](docs:/guides/how-relay-works.html) from the moment a customer sends it to the moment a webhook is delivered. On Wednesday you will pair with your buddy on a small, real change: fixing a typo in the docs, adding a test, or updating a dashboard. It goes through the normal [code review](wiki:/howto/code-review.html) and [deploy process](wiki:/howto/deploy-process.html), so you see the whole path once.

By Friday you should have access to the systems your team uses, have read your team's page on the wiki, and have a rough idea of what your first project will be. Write down what confused you during the week and send it to People Operations; we rewrite this handbook from those notes every quarter.`,
  },
  {
    path: '/welcome/first-month.html', section: 'welcome', title: 'Your first month', reviewed: '2024-11-02',
    body: `In your first month you take on a first project with a clear, modest scope, agreed with your manager in week two. Engineers usually join the [on-call rotation](wiki:/howto/on-call.html) as a shadow in week three: you carry no pager, but you follow along with the primary and sit in on any incident.

At the end of the month you and your manager hold a short check-in. It is not a performance review. The questions are simple: what is going well, what is unclear, and what would help. Managers write a few lines afterwards so that your three-month check-in can build on it.

Take the time to meet people outside your team. Your buddy can introduce you to someone in Support, Sales and Security; those conversations explain more about our customers than any document does.`,
  },
  {
    path: '/welcome/buddy-programme.html', section: 'welcome', title: 'The buddy programme', reviewed: '2024-09-20',
    body: `Every new starter gets a buddy: a colleague from a neighbouring team who has been here at least six months. The buddy is not your manager and not your mentor; they are the person you can ask the questions you feel silly asking.

## What a buddy does

- Meets you on your first day and at least twice a week for the first month.
- Shows you where things live: which chat channels matter, where the [wiki](wiki:/) keeps runbooks, how to book a room.
- Introduces you to people in other teams.
- Tells People Operations if something in your onboarding is stuck, such as missing access.

## Becoming a buddy

Volunteer in #people-ops. Buddies get two hours a week of their time recognised in planning, and a lunch on the company each month of the programme. We match buddies and new starters across teams on purpose: it spreads knowledge and friendships across the company.`,
  },
  {
    path: '/welcome/accounts-and-laptop.html', section: 'welcome', title: 'Accounts and laptop setup', reviewed: '2025-02-03',
    body: `Your laptop arrives enrolled in device management, with disk encryption turned on. Please do not turn it off; it is what lets us keep customer data safe if a laptop is lost.

## Accounts you will have

| Account | What it is for | Who grants it |
| Kestrel single sign-on | Mail, calendar, chat, the intranet | IT, before your first day |
| Source hosting | Code, reviews, continuous integration | Your manager requests it |
| Cloud console (read-only) | Dashboards and logs | Platform team, after the security briefing |
| Production access | Deploys and incident response | Granted after on-call training, see [access requests](wiki:/howto/access-requests.html) |

Install the password manager first and store every credential there. Developers should follow the [local development guide](wiki:/howto/local-development.html) to get the Relay services running on their laptop; it takes about an hour on a good network.

If your laptop is lost or stolen, report it straight away in #security or by phone to the IT desk. We can wipe it remotely, and nobody will be cross with you for losing it; people are cross only when they hear about it late.`,
  },
  {
    path: '/welcome/getting-help.html', section: 'welcome', title: 'Getting help', reviewed: '2025-01-30',
    body: `Not sure who to ask? Start here.

| Question about | Ask |
| Laptop, accounts, printers, Wi-Fi | #it-help or the IT desk on the second floor in London |
| Pay, contracts, leave, benefits | People Operations, people@kestrel.test |
| Expenses and corporate cards | Finance, see [expenses](/money/expenses.html) |
| Security concerns, lost devices, phishing | #security, any time of day |
| Production problems | The on-call engineer, see [on-call](wiki:/howto/on-call.html) |
| Anything else | Your buddy or your manager |

Most questions have been asked before, so it is worth a quick search of the intranet first. The search page covers this handbook, the engineering wiki, the product documentation and the news site.`,
  },
  {
    path: '/welcome/company-values.html', section: 'welcome', title: 'How we work: our values', reviewed: '2024-06-11',
    body: `We wrote our values down in 2021, after a year in which the company tripled in size and we noticed that new people were guessing at unwritten rules. There are four.

## Deliver what we promise

Relay exists because customers trust us to deliver their events exactly as promised. Inside the company the same applies: if you say you will do something, do it, or say early that you cannot.

## Write it down

Decisions, incidents, plans and processes live in writing, on the [wiki](wiki:/) or in this handbook. Writing lets people in Seoul, Lisbon and Toronto take part without being awake at the same time.

## Blameless by default

When something goes wrong we ask how the system let it happen, not who did it. Our [incident reviews](wiki:/incidents/index.html) are written in that spirit.

## Leave it better

Fix the broken link, update the stale runbook, answer the question in the channel even if it is not yours. Small acts of care add up to a company that is pleasant to work in.`,
  },
  {
    path: '/welcome/history.html', section: 'welcome', title: 'A short history of Kestrel Labs', reviewed: '2024-06-11',
    body: `Kestrel Labs was founded in 2017 by Mara Lindqvist and Tomás Ferreira, who had both spent years maintaining in-house webhook systems that nobody wanted to own. Their idea was simple: delivering events reliably is hard, so do it once, properly, as a service.

The first version of Relay ran on three virtual machines and delivered events for eleven customers. In 2019 we raised our first round and opened the London office; Lisbon followed in 2020, Toronto in 2022 and Seoul in 2024, when we started serving customers in Korea and Japan from a local region.

Today Relay delivers several billion events a month. The company has around two hundred people, and still argues happily about retry schedules. You can read about the big moments in [the news archive](news:/), including the [opening of the Seoul office](news:/announcements/seoul-office-opens.html).`,
  },
  {
    path: '/welcome/glossary.html', section: 'welcome', title: 'Words we use', reviewed: '2024-10-01',
    body: `Every company grows its own vocabulary. These are the words new starters ask about most often; the product terms are explained in more depth in the [Relay glossary](docs:/glossary/index.html).

- **All-hands**: the monthly company meeting, recorded for those in other time zones.
- **Buddy**: your guide for the first month, see [the buddy programme](/welcome/buddy-programme.html).
- **Delivery**: one attempt-or-more to send an event to a customer's endpoint.
- **Freeze**: a period when we do not deploy, such as the end of December.
- **Game day**: a planned exercise where we break something on purpose to practise incident response.
- **Incident review**: the written, blameless account of an incident, see the [wiki](wiki:/incidents/index.html).
- **Release train**: the weekly cut of the Relay agent, see [release train](wiki:/howto/release-train.html).
- **Tenant**: one customer organisation in Relay.`,
  },
];

const leave: DemoPage[] = [
  {
    path: '/leave/annual-leave.html', section: 'leave', title: 'Annual leave', reviewed: '2025-01-06',
    body: `Everyone at Kestrel Labs has 27 days of paid annual leave a year, plus the public holidays of the country they work in. Part-time colleagues get the same entitlement in proportion to their hours.

## Booking leave

Book leave in the HR system at least two weeks ahead for anything longer than three days, and tell your team. Your manager approves it; they only decline when the team would be left unable to cover on-call or a committed launch, and they must tell you why.

## Carrying over

You can carry up to five unused days into the next year; they must be used by the end of March. We would rather you took your leave: we track it, and managers get a nudge when someone has taken less than half their days by September.

## Buying and selling leave

Once a year, in November, you can buy up to five extra days, paid for by a small deduction from salary spread over the following year. Selling leave is not possible.

See also [sick leave](/leave/sick-leave.html), [public holidays](/leave/public-holidays.html) and the [sabbatical](/leave/sabbatical.html).`,
  },
  {
    path: '/leave/sick-leave.html', section: 'leave', title: 'Sick leave', reviewed: '2024-12-09',
    body: `If you are ill, stay at home and rest. Tell your manager as early as you can on the first day, by message or phone; you do not need to give details.

For absences up to seven calendar days you do not need a doctor's note. For longer absences we ask for one, mainly because it is required by law in several of the countries we work in. Sick pay is full salary for up to twelve weeks in any twelve months; after that, statutory rules apply and People Operations will talk you through them.

If you are on call and fall ill, hand over your shift: post in #on-call and ask the secondary to take the pager. It is never expected that you carry the pager while sick. The [on-call guide](wiki:/howto/on-call.html) explains how hand-overs work.

When you come back after a longer illness, your manager will arrange a return-to-work conversation to agree on a gradual start if that helps.`,
  },
  {
    path: '/leave/parental-leave.html', section: 'leave', title: 'Parental leave', reviewed: '2024-08-27',
    body: `Kestrel Labs offers the same parental leave to every parent, however they become one: birth, adoption or surrogacy.

| Leave | Length | Pay |
| Primary carer | 26 weeks | Full salary for 20 weeks, then statutory pay |
| Second carer | 12 weeks, within the first year | Full salary |
| Pregnancy loss | Two weeks | Full salary |

Tell People Operations as soon as you are comfortable, ideally three months before the leave starts, so we can plan cover together. Your manager will not be told before you are ready.

## Coming back

You can return gradually: for the first four weeks you can work 60 percent of your hours on full pay. You can also request flexible working; we say yes unless there is a serious reason not to, and we put reasons in writing. Keeping-in-touch days are optional and paid.`,
  },
  {
    path: '/leave/public-holidays.html', section: 'leave', title: 'Public holidays', reviewed: '2025-01-02',
    body: `You get the public holidays of the country your contract is in. If a holiday falls on a day you do not work, or on a weekend, the local rules for substitute days apply.

If you work in a different country from your team, you can swap up to three public holidays a year for other days of cultural or religious importance to you; agree it with your manager in advance.

## On-call over holidays

Engineers who carry the pager on a public holiday get a day off in lieu plus the holiday on-call allowance, see [on-call pay](/money/on-call-pay.html). The end-of-year [deploy freeze](wiki:/howto/deploy-process.html) runs from 20 December to 3 January, so holiday shifts are usually quiet.

The holiday calendar for each office is published on the office pages: [London](/offices/london.html), [Lisbon](/offices/lisbon.html), [Toronto](/offices/toronto.html), [Seoul](/offices/seoul.html) and [Berlin](/offices/berlin.html).`,
  },
  {
    path: '/leave/bereavement.html', section: 'leave', title: 'Bereavement leave', reviewed: '2024-05-15',
    body: `When someone close to you dies, take the time you need. You can take up to ten working days of paid bereavement leave for a close family member or partner, and up to three days for others who matter to you. Nobody will ask you to prove the relationship.

Tell your manager, or ask a colleague to tell them for you. People Operations can help with practical matters, such as time off for travel abroad, and the employee assistance line offers free counselling, see [wellbeing](/benefits/wellbeing.html).

If you need more time, more leave can be arranged, paid or unpaid. Returning gradually is fine.`,
  },
  {
    path: '/leave/sabbatical.html', section: 'leave', title: 'Sabbatical', reviewed: '2024-03-04',
    body: `After five years at Kestrel Labs you can take a paid four-week sabbatical, on top of your annual leave. It must be taken within two years of becoming eligible, in one block.

You can also ask for an unpaid sabbatical of up to three months after two years of service. We agree to it when the team can cover; the request goes to your manager and then to People Operations.

Plan a sabbatical at least three months ahead. Before you leave, write a short hand-over note on the wiki for anything you own, including services and runbooks, so that nobody has to page you while you are hiking in Patagonia.`,
  },
  {
    path: '/leave/volunteering.html', section: 'leave', title: 'Volunteering days', reviewed: '2024-04-22',
    body: `Each year you can take two paid days to volunteer for a charity or community organisation of your choice. Book them like annual leave and pick the "volunteering" type.

Teams sometimes volunteer together. In 2024 the Lisbon office spent a day helping a coding club for teenagers, and the London Support team refurbished laptops for a refugee charity; the stories are on [Kestrel News](news:/announcements/volunteering-report-2024.html).

Open-source work counts too, if it is for a project you do not maintain as part of your job.`,
  },
  {
    path: '/leave/jury-service-and-public-duties.html', section: 'leave', title: 'Jury service and public duties', reviewed: '2023-11-10',
    body: `If you are called for jury service, or hold a public role such as school governor, magistrate, reservist or local councillor, you get paid time off for it. Tell your manager when you receive the summons or take on the role.

For jury service we pay full salary for the whole period; if the court pays you a loss-of-earnings allowance, you may be asked to pass it on, depending on local law. For other public duties we give up to ten paid days a year; beyond that, we will find an arrangement together.`,
  },
];

const money: DemoPage[] = [
  {
    path: '/money/expenses.html', section: 'money', title: 'Expenses', reviewed: '2025-02-10', alsoAt: ['/finance/expenses.html'],
    body: `You can claim back money you spend on behalf of Kestrel Labs: travel, meals while travelling, conference tickets, books and small equipment. Spend it as if it were your own money.

## How to file an expense report

1. Photograph or save every receipt; an expense report without receipts cannot be paid.
2. Open the expenses app, create an expense report for the trip or the month, and attach one receipt per line.
3. Choose the category and, for travel, the trip it belongs to.
4. Submit it within 30 days of spending. Your manager approves it and Finance pays it with the next monthly payroll.

## Limits

| Category | Limit without pre-approval |
| Meals while travelling | See [per diem rates](/money/per-diem.html) |
| Books and courses | From your [learning budget](/money/learning-budget.html) |
| Equipment | Up to 150 in local currency; more needs Finance approval |
| Team meals | 40 per person, twice a year |

Alcohol is not reimbursed, except at team events with a director's approval. Lost receipts can be replaced by a short signed note, at most twice a year.

For trips, read the [travel policy](/money/travel.html) before booking. Company card holders should follow [corporate cards](/money/corporate-cards.html) instead of filing expenses.`,
  },
  {
    path: '/money/travel.html', section: 'money', title: 'Travel policy', reviewed: '2025-01-20',
    body: `Travel when meeting in person is clearly worth it: customer visits, team off-sites, conferences where you speak. Everything else can usually be a video call.

## Booking

Book flights and hotels through the travel portal at least 14 days ahead. Fly economy for flights under six hours and premium economy for longer ones. Trains are preferred over flights for journeys under four hours, for example London to Paris or Lisbon to Porto.

Hotels should cost no more than 180 a night in London, Toronto and Seoul and 140 elsewhere, in local currency. If a conference hotel is more expensive, book it anyway and note why.

## While travelling

Meals are covered by the [per diem](/money/per-diem.html). Taxis are fine late at night or when public transport would take more than twice as long. Keep receipts and file one [expense report](/money/expenses.html) per trip.

## Safety

Register every trip in the travel portal, even short ones, so we can reach you if something happens. Our travel insurance covers you and your luggage; the policy number is on the [insurance page](/benefits/health-insurance.html).`,
  },
  {
    path: '/money/per-diem.html', section: 'money', title: 'Per diem rates', reviewed: '2025-01-20',
    body: `When you travel for work you get a fixed daily amount for meals instead of claiming each receipt. The per diem covers breakfast, lunch, dinner and small snacks; it does not cover hotels or transport.

| City | Daily rate | Currency |
| London | 65 | GBP |
| Lisbon | 55 | EUR |
| Berlin | 60 | EUR |
| Toronto | 90 | CAD |
| Seoul | 85000 | KRW |
| Anywhere else | 60 | EUR or equivalent |

Claim the per diem in your expense report with the number of days; the first and last day of a trip count as half days. If a meal is provided, for instance at a conference dinner, deduct a third of the rate for that meal. No receipts are needed for per diem claims.`,
  },
  {
    path: '/money/corporate-cards.html', section: 'money', title: 'Corporate cards', reviewed: '2024-10-14',
    body: `Managers, people who travel often and a few team administrators hold a company card. It saves you spending your own money, but every transaction still needs a receipt.

Upload receipts to the card app within a week of the transaction; the app reminds you every Monday. Unmatched transactions older than 60 days block the card until they are sorted out.

Personal spending on the card is not allowed, even if you pay it back. If it happens by mistake, tell Finance straight away and it will be deducted from your next payslip; that is the end of it.

If your card is lost, freeze it in the card app and tell Finance. The full rules are in the [expenses page](/money/expenses.html).`,
  },
  {
    path: '/money/payroll.html', section: 'money', title: 'Payroll and payslips', reviewed: '2025-01-08',
    body: `Salaries are paid monthly, on the 25th, or on the last working day before it when the 25th falls on a weekend or holiday. Payslips appear in the HR system three days earlier.

Changes that affect pay, such as a new address, bank details, or leave without pay, must reach People Operations by the 10th of the month to make that month's payroll. Approved expenses are paid with the same run.

If something on your payslip looks wrong, write to payroll@kestrel.test with the month and the line in question. Mistakes in our favour are corrected in the next payroll; mistakes in yours are corrected within three working days by a separate payment.`,
  },
  {
    path: '/money/learning-budget.html', section: 'money', title: 'Learning budget', reviewed: '2024-12-02',
    body: `Everyone has a yearly learning budget of 1,000 in local currency, for books, courses, conference tickets and certifications that relate to their work, broadly read. Learning Korean because you work with the Seoul office counts; so does a course on negotiation for an engineer who runs vendor calls.

You can also take five learning days a year, on top of leave. Most people use them for conferences or to work through a course.

Claim the cost through [expenses](/money/expenses.html) with the category "learning". For anything over 500, agree it with your manager first. If you leave within six months of a course costing more than 500, you may be asked to repay part of it; this has never actually happened, but the rule exists.`,
  },
  {
    path: '/money/home-office.html', section: 'money', title: 'Home office allowance', reviewed: '2024-07-19',
    body: `Colleagues who work from home at least three days a week get a one-off allowance of 600 to set up a workspace (desk, chair, lighting, headset) and a monthly allowance of 30 towards internet and electricity.

Buy what works for you and claim it through [expenses](/money/expenses.html) with receipts. Equipment bought with the one-off allowance is yours to keep. A second monitor, keyboard and mouse can also be ordered from IT at no cost; they remain company property.

See [remote work](/policies/remote-work.html) for how remote work is arranged.`,
  },
  {
    path: '/money/on-call-pay.html', section: 'money', title: 'On-call pay', reviewed: '2025-02-01',
    body: `Engineers on the on-call rotation are paid for carrying the pager, whether or not it goes off.

| Shift | Allowance |
| Weekday night | 40 |
| Weekend day | 120 |
| Public holiday | 200, plus a day off in lieu |

When a page takes more than an hour outside working hours, you can also take the time back during the following week. Allowances are paid monthly through payroll; the rota tool reports your shifts automatically. The rules of the rotation itself are on the wiki, in the [on-call guide](wiki:/howto/on-call.html).`,
  },
];

const benefits: DemoPage[] = [
  {
    path: '/benefits/health-insurance.html', section: 'benefits', title: 'Health insurance', reviewed: '2025-01-10',
    body: `Kestrel Labs pays for private health insurance for you and your dependants in every country where we employ people. Cover starts on your first day; there is no waiting period.

The plan covers specialist consultations, hospital stays, mental health treatment and physiotherapy. Dental and optical cover is included in Canada and Korea, and can be added at a small cost in the UK and Portugal.

To register dependants, fill in the form in the HR system within 30 days of joining or of a life event such as marriage or birth. The insurer's app lets you find doctors and file claims; ask People Operations for the policy number if you have lost it.

Business travel insurance is separate and covers every work trip worldwide, see the [travel policy](/money/travel.html).`,
  },
  {
    path: '/benefits/pension.html', section: 'benefits', title: 'Pension', reviewed: '2024-09-03',
    body: `We contribute to a pension for everyone, at 6 percent of salary, whether or not you contribute yourself. If you put in more, we match an extra 2 percent.

Each country has its own scheme, chosen to fit local rules and tax relief. You can change your contribution at any time in the HR system; changes take effect the following month. Once a year the pension provider holds an online session on how the scheme works and how to choose funds; recordings are on [Kestrel News](news:/).

If you leave, the pension is yours: it stays invested in your name, and you can move it to another scheme.`,
  },
  {
    path: '/benefits/wellbeing.html', section: 'benefits', title: 'Wellbeing and mental health', reviewed: '2024-11-18',
    body: `Looking after your health is part of doing good work. These are the things we offer.

- A confidential employee assistance line, available at any hour in English, Portuguese, Korean and French, with up to eight free counselling sessions a year.
- A monthly wellbeing allowance of 40 for a gym, sports club, yoga class or meditation app.
- Mental health first aiders in every office, trained to listen and point you to help. Their names are in #wellbeing.
- A quiet room in each office, which cannot be booked for meetings.

Managers are trained to notice when someone is struggling and to talk about it without prying. If your workload is making you unwell, say so; adjusting the workload is your manager's job, not yours.`,
  },
  {
    path: '/benefits/cycle-to-work.html', section: 'benefits', title: 'Cycle to work', reviewed: '2024-04-02',
    body: `In the UK, Portugal and Germany you can lease a bicycle, an electric bicycle or a cargo bike through a salary sacrifice scheme, which saves tax and spreads the cost over twelve months. In Toronto and Seoul we pay for a yearly bike-share membership instead.

Every office has secure bike storage and a shower. The London office also has a small repair stand with tools, maintained enthusiastically by the Platform team.`,
  },
  {
    path: '/benefits/equipment.html', section: 'benefits', title: 'Equipment and phones', reviewed: '2024-07-19',
    body: `Everyone gets a laptop that is replaced every three years, or sooner if it fails. Engineers can choose between two models; everyone else gets the lighter one. You can keep your old laptop when it is replaced, after IT has wiped it.

A company phone is provided only for roles that need one, such as on-call engineers who prefer not to install the paging app on a personal phone. Accessories like a headset, a second monitor or an ergonomic keyboard can be ordered from IT. For a home workspace, see [home office allowance](/money/home-office.html).`,
  },
];

export default {
  host: 'handbook',
  owner: 'People Operations',
  home: `This is the Kestrel Labs handbook: how we work, what we offer and whom to ask. It is written by People Operations and everyone else; if something is wrong or missing, change it, or say so in #people-ops.

New here? Start with [your first day](/welcome/first-day.html). Looking for engineering processes such as deploys or on-call? Those live on the [engineering wiki](wiki:/). Product documentation for Relay is on [docs](docs:/), and company news on [Kestrel News](news:/).`,
  sections: [
    { key: 'welcome', title: 'Welcome', intro: 'Everything a new starter needs in the first weeks, from laptops to values.' },
    { key: 'policies', title: 'Policies', intro: 'How we work together: conduct, security, working hours, reviews and the rest of the rules we agreed on.' },
    { key: 'leave', title: 'Leave', intro: 'Time off: annual leave, sickness, parental leave, holidays and other reasons to be away.' },
    { key: 'money', title: 'Money', intro: 'Pay, expenses, travel and the budgets you can spend.' },
    { key: 'benefits', title: 'Benefits', intro: 'Insurance, pension, wellbeing and the other things we provide.' },
    { key: 'offices', title: 'Offices', intro: 'Our offices, how to get there and what is local about each of them.' },
  ],
  pages: [...welcome, ...policyPages, ...leave, ...money, ...benefits, ...officePages],
} satisfies HostContent;
