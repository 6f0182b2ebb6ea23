/**
 * @module crawler/demo/authoring/offices
 * The office pages. The Seoul page is written in Korean and the Berlin page in
 * German, for the people who work there; both test non-English analysis.
 */
import type { DemoPage } from './shell.js';

export const officePages: DemoPage[] = [
  {
    path: '/offices/london.html', section: 'offices', title: 'London office', reviewed: '2025-01-09',
    body: `Our largest office is on the third floor of a converted printing works near Old Street. About ninety people work there on a typical Tuesday, fewer on Fridays.

## Getting in

Your access card arrives on your first day; until then, sign in at reception. The building is open from 07:00 to 21:00 on weekdays. Bikes go in the basement store, entered from the side street.

## Around the office

The kitchen has free breakfast until 10:00 and a shared lunch on Thursdays, when teams take turns to cook. Meeting rooms are named after British birds of prey; the largest, Merlin, seats twenty and has the good video setup for all-hands.

London public holidays follow England and Wales. The IT desk is next to the lifts. First aiders and fire wardens are listed on the board by the kitchen.`,
  },
  {
    path: '/offices/lisbon.html', section: 'offices', title: 'Lisbon office', reviewed: '2024-10-21',
    body: `The Lisbon office opened in 2020 in a bright, tiled building in Santos, five minutes' walk from the tram. It is home to most of the Delivery and Support teams, about forty-five people.

The office keeps Portuguese public holidays, including the feast of Saint Anthony on 13 June, when Lisbon closes early and smells of grilled sardines. Lunch is not provided, but the neighbourhood has more good, cheap places to eat than anyone has managed to try.

Desks are unassigned; lockers are available on request. The roof terrace is open when it is not raining, which is most of the year.`,
  },
  {
    path: '/offices/toronto.html', section: 'offices', title: 'Toronto office', reviewed: '2024-12-03',
    body: `Our Toronto office, opened in 2022, is a flexible space in a shared building on King Street West, with room for thirty. It hosts the North American Sales and Support teams and a growing group of engineers on the Developer Experience team.

Toronto sits between London and Seoul in time zones, which makes it the natural home for our follow-the-sun Support rotation: Toronto picks up the queue from Lisbon in the afternoon and hands it to Seoul in the evening.

Winter is serious here. The building connects to the underground PATH network, so you can reach the subway without going outside. Ontario public holidays apply, including Family Day in February.`,
  },
  {
    path: '/offices/seoul.html', section: 'offices', title: '서울 사무소 안내', lang: 'ko', reviewed: '2025-02-05',
    summary: '서울 사무소의 위치, 출입 방법, 근무 시간과 휴가 안내입니다.',
    body: `서울 사무소는 2024년 봄에 강남구 역삼동에 문을 열었습니다. 한국과 일본 고객을 위한 서울 리전을 운영하는 플랫폼 엔지니어와 고객 지원팀, 영업팀이 함께 일하고 있으며, 현재 약 스무 명이 근무합니다.

## 찾아오는 길

사무소는 역삼역 3번 출구에서 걸어서 5분 거리에 있는 건물의 12층에 있습니다. 첫 출근 날에는 1층 안내 데스크에서 방문증을 받으시고, 출입 카드는 오전 중에 총무 담당자가 전달해 드립니다. 건물은 평일 오전 7시부터 오후 10시까지 열려 있습니다.

## 근무 시간과 협업

기본 근무 시간은 오전 10시부터 오후 4시까지를 핵심 시간으로 하는 유연 근무제입니다. 런던, 리스본, 토론토 동료들과 시차가 크기 때문에 회의는 가능한 한 한국 시간 오후 5시 이후나 오전 8시 이전을 피하고, 중요한 결정은 위키에 글로 남깁니다.

## 휴가와 공휴일

연차는 다른 사무소와 동일하게 1년에 27일이며, 한국의 법정 공휴일인 설날과 추석 연휴, 삼일절, 어린이날, 광복절, 한글날 등을 모두 쉽니다. 연차 신청 방법은 [연차 휴가 안내(영문)](/leave/annual-leave.html)를 참고하세요.

## 생활 정보

점심 식대는 하루 1만 2천 원까지 지원하며, 사무소 근처에 한식, 일식, 분식집이 많습니다. 매달 마지막 금요일에는 팀 전체가 함께 점심을 먹습니다. 궁금한 점은 채팅 채널 #seoul-office 에 남겨 주세요.`,
  },
  {
    path: '/offices/berlin.html', section: 'offices', title: 'Berliner Büro', lang: 'de', reviewed: '2024-09-30',
    summary: 'Unser kleiner Standort in Berlin-Kreuzberg: Anfahrt, Arbeitszeiten und Urlaub.',
    body: `Seit 2023 haben wir einen kleinen Standort in einem Coworking-Space in Berlin-Kreuzberg, direkt am Landwehrkanal. Hier arbeiten etwa zwölf Kolleginnen und Kollegen aus dem Security-Team und dem Vertrieb für die DACH-Region.

## Anfahrt und Zugang

Das Büro liegt fünf Gehminuten vom U-Bahnhof Kottbusser Tor entfernt. Den Zugangschip bekommst du am ersten Tag von der Empfangstheke des Coworking-Space. Fahrräder können im Innenhof abgestellt werden.

## Arbeitszeit und Urlaub

Die Kernarbeitszeit ist von 10 bis 16 Uhr. Es gelten die gesetzlichen Feiertage des Landes Berlin, also auch der Internationale Frauentag am 8. März. Der Jahresurlaub beträgt wie überall bei Kestrel Labs 27 Tage; Urlaub beantragst du im HR-System, wie auf der Seite [Annual leave](/leave/annual-leave.html) beschrieben.

## Sonstiges

Getränke und Obst sind kostenlos. Einmal im Monat treffen sich alle zum gemeinsamen Frühstück. Fragen zum Standort beantwortet der Kanal #berlin.`,
  },
];
