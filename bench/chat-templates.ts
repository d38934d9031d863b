/** Sentence templates of the realistic chat generator, with `{slot}` placeholders (see `chat-slots.ts`). */
import type { Topic } from './chat-pools.js';

export const TRIP_LINES = [
  "We're flying to {place} {when} and staying {few} nights near the old harbour.",
  'The hotel in {place} quoted {money} for the whole stay, breakfast included.',
  '{name} found a train that gets into {place} at {time}, which saves us about {minutes}.',
  "My suitcase was {kg} over the limit last time, so I'm packing lighter for {place}.",
  "We did a {km} coastal walk {past} and my legs still haven't forgiven me.",
  'The car rental in {place} is {price} a day plus a deposit of {money}.',
  '{name} and I want one full day in {place} just eating and wandering around.',
  "Flight prices jumped by {percent} when I checked {past}, so I'm glad we booked early.",
  'Our connection in {place} is only {minutes}, which makes me a little nervous.',
];

export const HOME_LINES = [
  'The builder wants to start on the {room} {when} and thinks it will come to around {bigmoney}.',
  '{name} measured the {room} and it is {metres} wide, so the new cabinets should just fit.',
  'We picked {material} for the {room}, which came to {money} with delivery.',
  'The plumber found a leak behind the {room} wall {past}, so that is another {money}.',
  'I spent {hours} sanding the floor in the {room} and only got halfway.',
  'We need {count} boxes of tiles for the {room}, and each box is {price}.',
  'My neighbour {name} recommended a decorator from {place} who charges {price} an hour.',
  'The skip arrives {when} and has to be gone within {few} days or we pay extra.',
];

export const HEALTH_LINES = [
  'I have an appointment with {clinic} {when} at {time}.',
  'My {bodypart} started aching {past}, mostly after sitting for more than {minutes}.',
  "The receptionist at {venue} said the check-up costs {price} if insurance doesn't cover it.",
  "I've lost {kg} since January by walking for {minutes} most mornings.",
  "My {relation} {name} is driving me to the follow-up {when} because I can't drive afterwards.",
  'The physio gave me {count} exercises and wants me to do them twice a day.',
  'My prescription renewal is due {when}, and the pharmacy in {place} usually needs {few} days.',
  'I slept badly {past} and my step count dropped by {percent} compared to the week before.',
];

export const MONEY_LINES = [
  'Our monthly grocery spend crept up to {money}, about {percent} more than last spring.',
  'I want to put {money} a month aside for the holiday fund starting {when}.',
  'Our {bill} went up to {price} a month, which feels like a lot for what we use.',
  '{name} still owes me {price} from the concert tickets {past}.',
  'We have {bigmoney} left on the car loan and about {count} payments to go.',
  'I cancelled {few} subscriptions {past}, and that saves roughly {price} a month.',
  'The tax refund should be around {money} and ought to land {when}.',
  'Splitting the cabin in {place} {few} ways comes to {money} each, not counting fuel.',
];

export const SCHOOL_LINES = [
  "{name}'s {class} exam is {when}, so we're revising for {minutes} every evening.",
  'The school trip to {place} costs {money} per child and the form is due {when}.',
  "Parents' evening is {when} at {time}, and we only get {minutes} with each teacher.",
  '{name} got {score} on the last {class} quiz, which is a big jump from last term.',
  'There are {count} kids in the class this year, more than the school promised.',
  'I signed up for an evening {class} course in {place} that runs for {few} months.',
  'The uniform and books came to {money}, and we still need new shoes.',
  'Homework club finishes at {time}, so someone has to collect {name} {when}.',
];

export const HOBBY_LINES = [
  "I've been doing {hobby} twice a week since {month} and I'm finally getting better.",
  '{name} talked me into a {km} charity ride {when}, which is frankly terrifying.',
  "The new kit for {hobby} was {money}, so I'd better actually use it.",
  'Our {hobby} group meets at {venue} on {day}s at {time}.',
  'I went {count} times this month, which beats my old record by {few} sessions.',
  "There's a {hobby} workshop in {place} {when} that costs {price} including materials.",
  'I spent {hours} on it last weekend and completely lost track of time.',
  '{name} wants to join too, but the group is capped at {count} people.',
];

export const PET_LINES = [
  '{pet} has a vet appointment at {venue} {when} for the yearly booster.',
  'Our {animal} {pet} weighs {kg} now, and the vet would like that to come down a bit.',
  "The pet sitter charges {price} a day, and we'll be away for {few} nights.",
  "{pet} chewed through a sofa cushion {past}, so that's another {money} gone.",
  'We walk {few} times a day, usually along the river, and the first walk is before {morning}.',
  "{name} offered to feed {pet} while we're in {place}, which is a huge relief.",
  'The insurance renewal for {pet} jumped by {percent} this year.',
  "We're thinking about adopting a second {animal} from the shelter in {place}.",
];

export const FAMILY_LINES = [
  "We're hosting {event} {when} and expecting about {count} guests.",
  '{name} is flying in from {place} for {event} and needs picking up at {time}.',
  'The caterer quoted {money} for {count} people, drinks not included.',
  'My {relation} {name} offered to handle the music, which is either great or a disaster.',
  'We booked the back room at {venue} for {event}, and the deposit was {money}.',
  'Guests for {event} arrive at {time}, but we want the photos done an hour earlier.',
  "I still haven't found a present for {name}, and the budget is about {price}.",
  '{name} called {past} to say the cousins from {place} can come after all.',
];

export const WORK_LINES = [
  "The {project} is due {when} and we're roughly {score} of the way there.",
  '{name} from {team} needs the numbers before the call at {time}.',
  "The budget for the {project} is {bigmoney}, and we've spent {money} so far.",
  'I have {count} interviews lined up for the analyst role, mostly {when}.',
  "We're meeting the client at their office in {place} {when} to walk through the {project}.",
  'My manager {name} moved the standup to {time}, which clashes with the school run.',
  'The team put in {hours} of overtime {past} to get the {project} out the door.',
  'Response times improved by {percent} after {name} rewrote the import step.',
];

export const TOPIC_LINES: Record<Topic, readonly string[]> = {
  trip: TRIP_LINES,
  home: HOME_LINES,
  health: HEALTH_LINES,
  money: MONEY_LINES,
  school: SCHOOL_LINES,
  hobby: HOBBY_LINES,
  pet: PET_LINES,
  family: FAMILY_LINES,
  work: WORK_LINES,
};

export const CORRECTIONS = [
  'Actually, make that {count} people; {name} just confirmed.',
  'Sorry, correction: it moved to {date} at {time}.',
  "Scratch what I said about the price, it's {money} after all.",
  'Actually, the meeting point is {venue} now, not the station.',
  "Wait, I got that wrong, it's {date}, I mixed up the weeks.",
  'Correction from {name}: the total is {money} after the discount.',
  'It moved to {place} because the original venue double-booked us.',
  "Actually, make that {few} nights instead; we can't get away sooner.",
  'Update: the quote came back at {money}, which is lower than I feared.',
  'Small change of plan, {name} is taking over that part starting {when}.',
  'Never mind the {time} slot, they pushed it to {time} instead.',
];

export const PREFERENCES = [
  "I'd rather do it in the morning, ideally before {morning}.",
  "I'd rather pay an extra {price} than change trains twice.",
  "Honestly, I'd rather keep things simple this time.",
  'I prefer paying by card, so anything cash-only is a no from me.',
  "I'd rather not ask {name} again, they already have enough on their plate.",
  "If possible, I'd like to keep the total under {money}.",
  "I'd rather have fewer, longer sessions than lots of short ones.",
  "My preference is anything near {place}, since that's easiest for everyone.",
];

export const RULES = [
  "Never book anything before {morning} on a {day}; I'm useless that early.",
  'Rule of thumb for us: nothing over {money} without checking with {name} first.',
  'Please never schedule two things on the same evening again.',
  'We always keep {percent} of the budget spare for surprises.',
  "Don't ever pick a place without reviews, we learned that the hard way.",
  'From now on, every receipt goes in the shared folder the same day.',
  "No calls after {evening}, that's my one firm rule this month.",
  'Never share my address with anyone outside the family without asking me.',
];

export const QUESTIONS = [
  'Can you remind me what we decided about {subject}?',
  'What do you think, is {money} reasonable for that?',
  'Could you put together a rough plan for {subject}?',
  'Is it silly to spend that much on {subject}?',
  'Do you remember when {name} said it was due?',
  'How much buffer should I leave before things start {when}?',
  'Can you help me work out whether this fits the budget?',
  'What would you do first if you were me?',
  'Should I message {name} today or wait until {day}?',
  'Any idea how long the whole thing will take?',
  "Could you write down the key dates so I don't lose track?",
  'What am I forgetting here?',
];

export const SMALL_TALK = [
  "Morning! I've had two coffees already and it's not even nine.",
  "Sorry for the slow reply, it's been a hectic day.",
  "Hope your day's going better than mine.",
  'Quick one before I head out.',
  'Okay, back again with more chaos.',
  "The weather in {place} is miserable today, so I'm staying in.",
  'Thanks again for the list last time, it really helped.',
  'Ha, {name} says hello, by the way.',
  'Right, where were we?',
  "Long week, but we're getting there.",
  "I'm typing this on the bus, so forgive the typos.",
  'Good news first: the sun is finally out.',
];

// ---------------------------------------------------------------------------
// Assistant templates
// ---------------------------------------------------------------------------

export const OPENERS = [
  'Got it, thanks for the update.',
  "That sounds like a lot to juggle, but it's manageable.",
  "Thanks, I've noted all of that.",
  'Understood.',
  'Good news on that front.',
  "No problem, let's sort it out.",
  'Sounds like real progress since last time.',
  "Okay, here's how I'd look at it.",
  "That's useful context.",
  'Happy to help with this.',
  "Oof, that's a busy stretch.",
  "Right, let's pull this together.",
];

export const CORRECTION_ACKS = [
  "Thanks for the correction; I've noted that it now happens {swhen}.",
  "Noted, I've replaced the old figure with {smoney}.",
  "Good catch, I'll use the updated details from now on.",
  "Thanks, I've changed my notes so {sname} is down for that part.",
];

export const RULE_ACKS = [
  "Noted, I'll stick to that rule from now on.",
  "Understood, I'll keep that preference in mind for everything that follows.",
  "That's a sensible rule, and I'll flag anything that breaks it.",
  "Makes sense; I'll plan around that.",
];

export const SUMMARIES = [
  'So far for {subject}: {sname} is involved, things come to a head {swhen}, and the figure to watch is {smoney}.',
  'To recap, {subject} should be settled {swhen}, with {splace} as the base.',
  'The key number for {subject} is {smoney}, so everything else should fit around that.',
  "As I understand it, {sname} is handling part of {subject} and you're covering the rest.",
  'The timeline for {subject} looks tight but realistic, provided everything is confirmed {swhen}.',
  "Here's the short version: {subject} costs about {smoney} and needs sorting {swhen}.",
  "You've now got {subject}, the paperwork, and {sname}'s plans all landing {swhen}.",
  "I've updated my notes on {subject} with the new details from {splace}.",
  'With the latest change, {subject} still sits within the budget you mentioned.',
  'Overall {subject} is in decent shape; the open question is timing.',
  'That means {subject} now depends mainly on {sname} confirming.',
  'Taking everything into account, the total for {subject} is roughly {smoney}, give or take {percent}.',
  'So the plan for {subject} centres on {splace} and wraps up {swhen}.',
  "Noted the change, so {subject} now happens {swhen} and I've adjusted the rest around it.",
];

export const SUGGESTIONS = [
  "I'd suggest locking in {subject} this week, since prices often rise by {percent} closer to the date.",
  'It might help to block out {minutes} on {day} just for this.',
  'One option is to ask {sname} to share the cost, which would bring your part down to about {money}.',
  'You could keep a short running list on your phone so nothing gets lost before things kick off {swhen}.',
  'If the budget is tight, trimming {percent} from the extras would cover most of the gap.',
  "Consider setting a reminder for {day} at {time} so it doesn't sneak up on you.",
  "It's worth getting a second quote, because a difference of even {money} adds up.",
  "I'd build in a buffer of {few} days, because anything happening {swhen} could easily slip.",
  'A good next step would be a quick call with {sname} to confirm the details.',
  'If you can, pay the deposit by card, since that usually gives you more protection.',
  'Splitting it into {few} smaller tasks would make the week feel less crowded.',
  'It may be easier to handle everything in {splace} on one day rather than making several trips.',
  "You might also check the cancellation policy before paying {smoney}.",
  'Maybe treat {day} as a catch-up day with nothing else planned.',
];

export const CHECKLISTS = [
  "Here's a quick checklist: confirm the date with {sname}, pay the {money} deposit, and keep the receipts in one place.",
  'For this week, first sort out {subject}, then reply to {sname}, and finally check the totals on {day}.',
  'To be ready {swhen}, make sure you have the confirmation email, the address in {splace}, and a rough budget of {smoney}.',
  "The steps I'd follow are to compare prices, book the option you like, and tell {sname} once it's fixed.",
  'Things to bring are the paperwork, a charged phone, some cash for parking, and any notes about {subject}.',
  'To do today: one message to {sname}, one payment of {money}, and ten minutes to update the calendar.',
  'My checklist would be to double-check the time, plan the route to {splace}, and leave {minutes} early.',
  'The open items are the final price, who is paying, and whether everyone can still make it {swhen}.',
  'Three things remain: confirm {subject}, settle the {smoney}, and send {sname} the details.',
  "First write down the fixed costs, then the flexible ones, and then see what's left for {subject}.",
];

export const FOLLOW_UPS = [
  'Would you like me to draft a message to {sname}?',
  'Should I set a reminder for the day before, since it all happens {swhen}?',
  'Do you want a day-by-day plan for it?',
  'Is {smoney} the final figure, or could it still change?',
  'Want me to keep a running total as new costs come in?',
  'Shall I add {subject} to your list for {day}?',
  'Does {sname} already know about the change?',
  'Would it help to compare a couple of alternatives in {splace}?',
  'Do you want me to flag anything else scheduled {swhen}?',
  'Is there anything else tied to {subject} that I should track?',
];

export const CLOSERS = [
  'Good luck, and let me know how it goes.',
  "Either way, you're in a good position.",
  "I'll keep all of this in mind for next time.",
  'Fingers crossed everything lines up.',
  'Just shout if anything changes.',
  "Enjoy it, you've earned a break.",
];
