/** Value pools of the realistic chat generator: names, places and the things people talk about. */

export type Topic = 'trip' | 'home' | 'health' | 'money' | 'school' | 'hobby' | 'pet' | 'family' | 'work';

export const NAMES = [
  'Maya', 'Tomás', 'Lena', 'Jonas', 'Priya', 'Kwame', 'Aiko', 'Mateo', 'Fatima', 'Oliver',
  'Ingrid', 'Rahul', 'Chloe', 'Dmitri', 'Amara', 'Luca', 'Sofia', 'Hiroshi', 'Zanele', 'Ethan',
  'Noor', 'Björn', 'Camila', 'Tariq', 'Yuki', 'Grace', 'Emeka', 'Anja', 'Diego', 'Leila',
  'Seán', 'Mei', 'Kofi', 'Elif', 'Marco', 'Hannah', 'Arjun', 'Siobhan', 'Nikolai', 'Ana',
  'Omar', 'Freya', 'Jae-won', 'Lucía', 'Tevita', 'Rosa', 'Samuel', 'Inès', 'Wiremu', 'Astrid',
] as const;

export const PLACES = [
  'Lisbon', 'Porto', 'Kyoto', 'Osaka', 'Toronto', 'Montreal', 'Berlin', 'Kreuzberg', 'Leeds', 'Shoreditch',
  'Brixton', 'Edinburgh', 'Dublin', 'Galway', 'Barcelona', 'Gràcia', 'Valencia', 'Lyon', 'Marseille', 'Copenhagen',
  'Nørrebro', 'Oslo', 'Reykjavik', 'Athens', 'Naples', 'Krakow', 'Austin', 'Brooklyn', 'the Mission District', 'Melbourne',
  'Fitzroy', 'Wellington', 'Cape Town', 'Nairobi', 'Mexico City', 'Oaxaca', 'Hanoi', 'Queens', 'Glasgow', 'Bristol',
] as const;

export const VENUES = [
  'the Riverside Community Hall', 'Harbour Street Clinic', 'the Old Mill pub', 'the North Pier climbing wall',
  'Café Lumen', 'the Maple Street library', "St. Anne's Hospital", 'the Westgate leisure centre', 'Hotel Miramar',
  'the botanic gardens', 'the Blue Door Bakery', 'Bayside Vet Surgery', 'the Crown Theatre', 'Lakeside Golf Club',
  'the community centre on Elm Road', 'the Grand Hotel ballroom', 'the Saturday market hall', 'the rowing club',
] as const;

export const SUBJECTS: Record<Topic, readonly string[]> = {
  trip: ['the trip', 'the flights', 'the hotel booking', 'the itinerary', 'the train tickets', 'the car rental'],
  home: ['the renovation', 'the kitchen work', 'the bathroom refit', 'the flooring', 'the decorating', 'the building quote'],
  health: ['the appointment', 'the follow-up', 'the physio plan', 'the prescription', 'the check-up', 'the scan'],
  money: ['the budget', 'the savings plan', 'the monthly bills', 'the holiday fund', 'the tax refund', 'the car loan'],
  school: ['the exam prep', 'the school trip', "parents' evening", 'the evening course', 'the homework schedule'],
  hobby: ['the workshop', 'the training plan', 'the new kit', 'the class', 'the charity ride', 'the club membership'],
  pet: ['the vet visit', 'the pet sitter', 'the pet insurance', 'the adoption', 'the feeding plan'],
  family: ['the party', 'the guest list', 'the catering', 'the reunion', 'the present', 'the seating plan'],
  work: ['the project', 'the deadline', 'the client meeting', 'the hiring', 'the report', 'the handover'],
};

export const TOPICS: readonly Topic[] = ['trip', 'home', 'health', 'money', 'school', 'hobby', 'pet', 'family', 'work'];
export const RELATIONS = ['sister', 'brother', 'cousin', 'neighbour', 'aunt', 'uncle', 'flatmate', 'colleague', 'partner', 'best friend', 'brother-in-law'];
export const ROOMS = ['kitchen', 'bathroom', 'spare bedroom', 'hallway', 'loft', 'living room', 'utility room', 'downstairs toilet'];
export const MATERIALS = ['oak flooring', 'terracotta tiles', 'a quartz worktop', 'sage green paint', 'brushed brass taps', 'herringbone parquet', 'slate tiles', 'a walk-in shower tray'];
export const CLINICS = ['the dentist', 'the physio', 'the GP', 'the dermatologist', 'the eye clinic', 'the hearing clinic', 'the orthopaedic surgeon', 'the nutritionist'];
export const BODY_PARTS = ['knee', 'lower back', 'shoulder', 'wrist', 'ankle', 'neck', 'hip'];
export const BILLS = ['electricity bill', 'car insurance', 'phone contract', 'broadband', 'gym membership', 'water bill', 'home insurance', 'streaming bundle'];
export const CLASSES = ['maths', 'chemistry', 'Spanish', 'history', 'biology', 'geography', 'French', 'physics', 'music'];
export const HOBBIES = ['bouldering', 'pottery', 'sourdough baking', 'choir practice', 'trail running', 'chess club', 'watercolour painting', 'salsa classes', 'woodworking', 'open-water swimming'];
export const PETS = ['Biscuit', 'Luna', 'Pepper', 'Mochi', 'Otis', 'Juniper', 'Rocket', 'Nala', 'Basil', 'Waffles', 'Ziggy', 'Clementine'];
export const ANIMALS = ['dog', 'cat', 'rabbit', 'spaniel', 'tabby', 'terrier', 'greyhound'];
export const EVENTS = ["my parents' anniversary dinner", "Grandma's 80th birthday", 'the christening', "my cousin's engagement party", 'the family reunion', "Dad's retirement party", 'our housewarming', "the twins' first birthday", "Mum's 60th"];
export const PROJECTS = ['quarterly report', 'vendor migration', 'client pitch', 'website relaunch', 'onboarding guide', 'warehouse audit', 'product launch', 'pricing review', 'data clean-up', 'office move'];
export const TEAMS = ['finance', 'the design team', 'legal', 'the sales team', 'support', 'procurement', 'the Toronto office', 'marketing'];
export const FEW = ['two', 'three', 'four', 'five'];
export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const CURRENCIES = ['$', '$', '£', '€'];
export const UPCOMING = ['next', 'this', 'on'];
export const RECENT = ['last', 'on'];
export const FUTURE_PHRASES = [
  'tomorrow', 'tomorrow morning', 'the day after tomorrow', 'in two weeks', 'in ten days', 'in a fortnight', 'next weekend',
  'this weekend', 'at the end of the month', 'early next month', 'later this week', 'in three weeks', 'after the holidays',
];
export const PAST_PHRASES = [
  'yesterday', 'last weekend', 'two days ago', 'earlier this week', 'last month', 'the other day', 'a couple of weeks ago',
  'over the holidays', 'last night',
];
